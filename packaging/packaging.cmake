# SPDX-License-Identifier: GPL-3.0-or-later
# build/weft: on hosts with Qt 6 + KF6 a link to the binary; on hosts that build in the Debian 13
# build root, a launcher that runs the binary inside it with the host's paths.
if(WEFT_LAUNCHER_MODE STREQUAL "buildroot")
    # Where the build puts weft-window (app/CMakeLists.txt): the launcher starts it without bin/weft.
    get_target_property(WEFT_WINDOW_DIR weft-window RUNTIME_OUTPUT_DIRECTORY)
    configure_file(${CMAKE_CURRENT_LIST_DIR}/weft-launcher.sh.in ${CMAKE_BINARY_DIR}/weft @ONLY
        FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
else()
    file(CREATE_LINK bin/weft ${CMAKE_BINARY_DIR}/weft SYMBOLIC)
endif()

# ---- installation: what a desktop needs to find and start Weft ----------------------------------
# The reverse-DNS application ID names the desktop file, the metainfo and the icon alike (and
# QGuiApplication::desktopFileName in app/main.cpp).
set(WEFT_APP_ID dev.weft.Weft)
install(FILES ${CMAKE_CURRENT_LIST_DIR}/${WEFT_APP_ID}.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
install(FILES ${CMAKE_CURRENT_LIST_DIR}/${WEFT_APP_ID}.metainfo.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
install(FILES ${CMAKE_SOURCE_DIR}/resources/icons/app/${WEFT_APP_ID}.svg
    DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
foreach(size 16 22 32 48 64 128 256 512)
    install(FILES ${CMAKE_SOURCE_DIR}/resources/icons/app/png/${WEFT_APP_ID}-${size}.png
        DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/${size}x${size}/apps RENAME ${WEFT_APP_ID}.png)
endforeach()
# Compiled translations (.qm) go to share/weft/translations; the folder exists even before there
# are any. Rules that install .qm files use WEFT_TRANSLATIONS_INSTALL_DIR.
set(WEFT_TRANSLATIONS_INSTALL_DIR ${CMAKE_INSTALL_DATADIR}/weft/translations)
install(DIRECTORY DESTINATION ${WEFT_TRANSLATIONS_INSTALL_DIR})

# ---- a .deb for Debian 13 with CPack: cpack -G DEB in the build dir -------------------------------
set(CPACK_PACKAGE_NAME weft)
set(CPACK_PACKAGE_VENDOR "The Weft developers")
set(CPACK_PACKAGE_CONTACT "The Weft developers <weft@weft.dev>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "desktop home for coding-agent sessions")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_HOMEPAGE_URL "https://weft.dev/")
set(CPACK_GENERATOR DEB)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${CPACK_PACKAGE_CONTACT}")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "desktop home for coding-agent sessions
 Weft keeps the sessions of coding agents in OpenCode's format and gives them a
 desktop window: read a conversation with its tool calls and file changes,
 continue it with any configured model, fork it at any message, and compact it
 when the context is full. It reads OpenCode's database read-only and searches
 all sessions, Chinese and Japanese text included.")
# Library dependencies from the binary (dpkg-shlibdeps); what Qt loads at run time is not linked,
# so it is named: the SQLite driver (OpenCode's database, search) and the syntax definitions.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libqt6sql6-sqlite, libkf6syntaxhighlighting-data")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "qt6-wayland, qt6-svg-plugins, hicolor-icon-theme")
include(CPack)
