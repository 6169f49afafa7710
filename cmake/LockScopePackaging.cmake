# `cpack -G DEB` (from a build configured with CMAKE_INSTALL_PREFIX=/usr, as the release
# preset does) makes two Debian packages from the install components:
#   lockscope      the applications; Depends computed by dpkg-shlibdeps from the binaries
#   lockscope-dev  the lock library, headers, CMake package and pkg-config file
set(CPACK_PACKAGE_NAME lockscope)
set(CPACK_PACKAGE_VENDOR "LockScope developers")
# The maintainer named in both packages and their Debian changelog. The project has no
# published address yet: a release build must pass its own, e.g.
#   -DLOCKSCOPE_PACKAGE_MAINTAINER="Name <name@example.org>"
# (lintian rejects the localhost placeholder as bogus-mail-host; tests/package says so).
set(LOCKSCOPE_PACKAGE_MAINTAINER "LockScope developers <lockscope@localhost>"
    CACHE STRING "Maintainer field of the Debian packages")
set(CPACK_PACKAGE_CONTACT "${LOCKSCOPE_PACKAGE_MAINTAINER}")
include(${CMAKE_CURRENT_LIST_DIR}/LockScopeDebianDocs.cmake)
# The summary line of both packages is the project DESCRIPTION; the texts below follow it.
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGE_DIRECTORY ${PROJECT_BINARY_DIR}/packages)

set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL runtime development)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)

set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME lockscope)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SHLIBDEPS ON)
# The sandbox, the tests' fixture and live replays start a private redis-server.
set(CPACK_DEBIAN_RUNTIME_PACKAGE_RECOMMENDS "redis-server")
set(CPACK_COMPONENT_RUNTIME_DESCRIPTION
    "LockScope lists the locks on Redis servers as they change (holder token, time
left, fencing counter, findings) and releases a lock only if it still holds
the token the operator saw. lockscope is the Qt window with a teaching panel
that replays how locks fail; lockscope-cli is the command-line tool.")

set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_NAME lockscope-dev)
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_SECTION libdevel)
# Static archives: a consumer links hiredis, OpenSSL, SQLite and (for find_package) nlohmann_json.
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_DEPENDS
    "libhiredis-dev, libssl-dev, libsqlite3-dev, nlohmann-json3-dev, pkgconf | pkg-config")
set(CPACK_COMPONENT_DEVELOPMENT_DESCRIPTION
    "The C++20 lock library, static, with its headers, CMake package and
pkg-config file: atomic acquire with a fencing token, owner-checked extend
and release, a watchdog that reports a lost lock, a fenced SQLite store,
Redlock over N primaries, and the inspector's scanner.
find_package(LockScope) gives LockScope::lockscope; pkg-config gives lockscope.")

include(CPack)
