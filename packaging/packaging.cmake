# SPDX-License-Identifier: GPL-3.0-or-later
# build/weft: on hosts with Qt 6 + KF6 a link to the binary; on hosts that build in the Debian 13
# build root, a launcher that runs the binary inside it with the host's paths.
if(WEFT_LAUNCHER_MODE STREQUAL "buildroot")
    configure_file(${CMAKE_CURRENT_LIST_DIR}/weft-launcher.sh.in ${CMAKE_BINARY_DIR}/weft @ONLY
        FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
else()
    file(CREATE_LINK bin/weft ${CMAKE_BINARY_DIR}/weft SYMBOLIC)
endif()
