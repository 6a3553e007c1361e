# The include arrows between the top-level directories point one way: the kernel library
# (stdlib/) and the runtime (runtime/) include nothing from the compiler or LLVM, so a built
# executable needs neither. Run by ctest as `layering.includes` (cmake -DSOURCE_DIR=... -P).
set(violations "")
foreach(dir stdlib runtime)
  file(GLOB_RECURSE files "${SOURCE_DIR}/${dir}/*.h" "${SOURCE_DIR}/${dir}/*.hpp" "${SOURCE_DIR}/${dir}/*.cpp"
       "${SOURCE_DIR}/${dir}/*.def")
  foreach(f ${files})
    file(STRINGS "${f}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*[\"<](compiler|llvm|clang)/")
    foreach(line ${lines})
      file(RELATIVE_PATH rel "${SOURCE_DIR}" "${f}")
      string(APPEND violations "  ${rel}: ${line}\n")
    endforeach()
  endforeach()
endforeach()
if(violations)
  message(FATAL_ERROR "stdlib/ and runtime/ must not include compiler or LLVM headers:\n${violations}")
endif()
