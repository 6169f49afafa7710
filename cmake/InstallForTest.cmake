# ctest's fixture for the consumer test: a fresh install of the development component into
# PREFIX, so nothing left from an earlier install can hide a missing file.
#   cmake -DBUILD_DIR=... -DPREFIX=... -P InstallForTest.cmake
file(REMOVE_RECURSE "${PREFIX}")
execute_process(COMMAND "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${PREFIX}"
                        --component development
                COMMAND_ERROR_IS_FATAL ANY)
