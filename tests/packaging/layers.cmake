# SPDX-License-Identifier: GPL-3.0-or-later
# The layers the build enforces (ARCHITECTURE.md, "Layers"): each probe is one file compiled with
# what a target links (so with its include roots and flags), built by the test, never by `all`.
# views_app must compile (the probes themselves work); the others must fail to compile, on the
# header they include. One build at a time in the tree (RESOURCE_LOCK).
# weft_layer_probe(NAME LINKS targets... [MISSING header]): without MISSING the probe must compile.
function(weft_layer_probe name)
    cmake_parse_arguments(ARG "" "MISSING" "LINKS" ${ARGN})
    set(target weft_layer_probe_${name})
    add_library(${target} OBJECT EXCLUDE_FROM_ALL ${CMAKE_CURRENT_SOURCE_DIR}/layers/${name}.cpp)
    target_link_libraries(${target} PRIVATE ${ARG_LINKS})
    set_target_properties(${target} PROPERTIES AUTOMOC OFF AUTOUIC OFF AUTORCC OFF)
    add_test(NAME layers_${name} COMMAND ${CMAKE_COMMAND} --build ${CMAKE_BINARY_DIR} --target ${target})
    set_tests_properties(layers_${name} PROPERTIES RESOURCE_LOCK weft_build_tree TIMEOUT 300)
    if(ARG_MISSING)
        # gcc: "HEADER: No such file or directory"; clang: "'HEADER' file not found".
        string(REPLACE "." "\\." header "${ARG_MISSING}")
        set_tests_properties(layers_${name} PROPERTIES
            PASS_REGULAR_EXPRESSION "${header}: No such file or directory|'${header}' file not found")
    endif()
endfunction()

weft_layer_probe(views_app LINKS weftviews)
weft_layer_probe(views_opencodedb LINKS weftviews MISSING opencodedb/opencodedbstore.h)
weft_layer_probe(views_store LINKS weftviews MISSING store/store.h)
weft_layer_probe(views_sessionstore LINKS weftviews MISSING store/store.h)
weft_layer_probe(views_server LINKS weftviews MISSING server/serverclient.h)
weft_layer_probe(views_search LINKS weftviews MISSING search/searchindex.h)
weft_layer_probe(views_processor LINKS weftviews MISSING processor/processor.h)
weft_layer_probe(views_compaction LINKS weftviews MISSING compaction/compaction.h)
weft_layer_probe(views_mcp LINKS weftviews MISSING mcp/mcpmanager.h)
weft_layer_probe(views_provider LINKS weftviews MISSING provider/config.h)
weft_layer_probe(store_session LINKS weftstore MISSING session/sessionservice.h)
