# One compile-time probe: compiles nodiscard_probes.cpp with -DCASE as a user's build would
# (-std=c++20 -Wall -Wextra -Werror, the installed headers only) and expects it to fail with
# a diagnostic matching EXPECT — or, when EXPECT is "compiles", to succeed.
# cmake -DCOMPILER=... -DINCLUDE=... -DSOURCE=... -DCASE=... -DEXPECT=... -P compile_fail.cmake
execute_process(
  COMMAND ${COMPILER} -std=c++20 -fsyntax-only -Wall -Wextra -Werror -I${INCLUDE}
          -D${CASE} ${SOURCE}
  RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(EXPECT STREQUAL "compiles")
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "${CASE} must compile, but:\n${err}")
  endif()
  return()
endif()
if(result EQUAL 0)
  message(FATAL_ERROR "${CASE} compiled, but must not: ${EXPECT}")
endif()
if(NOT err MATCHES "${EXPECT}")
  message(FATAL_ERROR "${CASE} failed, but not with '${EXPECT}':\n${err}")
endif()
message(STATUS "${CASE}: refused as expected")
