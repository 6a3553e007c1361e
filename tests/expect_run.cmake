# Runs a command and checks both its exit code and its output, for tests that would otherwise use
# PASS_REGULAR_EXPRESSION (under which ctest ignores the exit code):
#
#   cmake -DEXPECT_EXIT=0 "-DEXPECT_REGEX=ELBO" -P expect_run.cmake -- COMMAND [ARG...]
#
# The regex is matched against stdout and stderr together, as PASS_REGULAR_EXPRESSION would be
# (same regex engine: '.' also matches a newline). The output is echoed as it comes.
if(NOT DEFINED EXPECT_EXIT OR NOT DEFINED EXPECT_REGEX)
  message(FATAL_ERROR "expect_run.cmake: set EXPECT_EXIT and EXPECT_REGEX")
endif()
set(command)
set(after_separator FALSE)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(i RANGE ${last})
  if(after_separator)
    if("${CMAKE_ARGV${i}}" MATCHES ";")
      message(FATAL_ERROR "expect_run.cmake: a CMake list cannot hold an argument with ';': ${CMAKE_ARGV${i}}")
    endif()
    list(APPEND command "${CMAKE_ARGV${i}}")
  elseif("${CMAKE_ARGV${i}}" STREQUAL "--")
    set(after_separator TRUE)
  endif()
endforeach()
if(NOT command)
  message(FATAL_ERROR "expect_run.cmake: no command after --")
endif()

list(JOIN command " " shown)
execute_process(COMMAND ${command}
  RESULT_VARIABLE result
  OUTPUT_VARIABLE output
  ERROR_VARIABLE output
  ECHO_OUTPUT_VARIABLE ECHO_ERROR_VARIABLE)
if(NOT "${result}" STREQUAL "${EXPECT_EXIT}")
  message(FATAL_ERROR "expect_run.cmake: exit status '${result}', expected ${EXPECT_EXIT}: ${shown}")
endif()
if(NOT output MATCHES "${EXPECT_REGEX}")
  message(FATAL_ERROR "expect_run.cmake: the output does not match '${EXPECT_REGEX}': ${shown}")
endif()
