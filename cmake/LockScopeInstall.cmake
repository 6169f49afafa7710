# What `cmake --install` puts in place, in two components:
#   runtime      lockscope-cli, lockscope (GUI), man pages, desktop file, AppStream
#                metainfo, MIME type, icons
#   development  the lock library (core, redlock, inspect: static archives), its public
#                headers, a CMake package (find_package(LockScope)) and lockscope.pc
# The sandbox (spawns redis-server) and the simulator stay inside the applications.
include(CMakePackageConfigHelpers)

set(LOCKSCOPE_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/LockScope)

# Module targets: LockScope::core, LockScope::redlock, LockScope::inspect, and
# LockScope::lockscope for all three; the same names work inside this tree.
set_target_properties(lockscope_core PROPERTIES EXPORT_NAME core)
set_target_properties(lockscope_redlock PROPERTIES EXPORT_NAME redlock)
set_target_properties(lockscope_inspect PROPERTIES EXPORT_NAME inspect)
set_target_properties(lockscope_lib PROPERTIES EXPORT_NAME lockscope)
set_target_properties(lockscope_version PROPERTIES EXPORT_NAME version)
add_library(LockScope::core ALIAS lockscope_core)
add_library(LockScope::redlock ALIAS lockscope_redlock)
add_library(LockScope::inspect ALIAS lockscope_inspect)

install(TARGETS lockscope_core lockscope_redlock lockscope_inspect lockscope_version lockscope_lib
        EXPORT LockScopeTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT development)
# Public headers of the installed modules only: the simulator, the torture tester and the
# exporter, the fleet, the proxy and the sandbox belong to the applications and tests and are
# not installed, so neither are their headers.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/lib/include/lockscope
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT development
        PATTERN sim EXCLUDE PATTERN torture EXCLUDE PATTERN exporter EXCLUDE
        PATTERN fleet EXCLUDE PATTERN proxy EXCLUDE PATTERN sandbox EXCLUDE)
install(FILES ${LOCKSCOPE_GENERATED_INCLUDE_DIR}/lockscope/version.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/lockscope COMPONENT development)
install(EXPORT LockScopeTargets NAMESPACE LockScope:: DESTINATION ${LOCKSCOPE_CMAKE_DIR}
        COMPONENT development)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/LockScopeConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/LockScopeConfig.cmake
                              INSTALL_DESTINATION ${LOCKSCOPE_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/LockScopeConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/LockScopeConfig.cmake
              ${PROJECT_BINARY_DIR}/LockScopeConfigVersion.cmake
        DESTINATION ${LOCKSCOPE_CMAKE_DIR} COMPONENT development)
file(RELATIVE_PATH LOCKSCOPE_PC_TO_PREFIX /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
configure_file(${PROJECT_SOURCE_DIR}/cmake/lockscope.pc.in ${PROJECT_BINARY_DIR}/lockscope.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/lockscope.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT development)

install(TARGETS lockscope-cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)

# Man pages, written in scdoc (docs/man/*.scd) and made at build time, gzipped as Debian
# wants them. Without scdoc the build goes on without them.
find_program(LOCKSCOPE_SCDOC scdoc)
if(LOCKSCOPE_SCDOC)
  set(pages lockscope-cli)
  if(LOCKSCOPE_BUILD_UI)
    list(APPEND pages lockscope)
  endif()
  set(outputs)
  foreach(page IN LISTS pages)
    set(src ${PROJECT_SOURCE_DIR}/docs/man/${page}.1.scd)
    set(out ${PROJECT_BINARY_DIR}/man/${page}.1.gz)
    add_custom_command(OUTPUT ${out}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/man
      COMMAND sh -c "\"$0\" < \"$1\" | gzip -9n > \"$2\"" ${LOCKSCOPE_SCDOC} ${src} ${out}
      DEPENDS ${src} VERBATIM COMMENT "Man page ${page}(1)")
    list(APPEND outputs ${out})
  endforeach()
  add_custom_target(man ALL DEPENDS ${outputs})
  install(FILES ${outputs} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT runtime)
else()
  message(WARNING "scdoc not found: no man pages (./scripts/install-deps installs it)")
endif()
if(LOCKSCOPE_BUILD_UI)
  install(TARGETS lockscope RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
  # The desktop file, the icon and the metainfo are named after the AppStream id.
  set(app_id io.github.lockscope.lockscope)
  install(FILES ${PROJECT_SOURCE_DIR}/resources/${app_id}.desktop
          DESTINATION ${CMAKE_INSTALL_DATADIR}/applications COMPONENT runtime)
  install(FILES ${PROJECT_SOURCE_DIR}/resources/icons/lockscope.svg RENAME ${app_id}.svg
          DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps COMPONENT runtime)
  install(FILES ${PROJECT_SOURCE_DIR}/resources/${app_id}.metainfo.xml
          DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo COMPONENT runtime)
  install(FILES ${PROJECT_SOURCE_DIR}/resources/lockscope-mime.xml RENAME lockscope.xml
          DESTINATION ${CMAKE_INSTALL_DATADIR}/mime/packages COMPONENT runtime)
endif()
