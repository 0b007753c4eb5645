# The size bins of the programs' end-of-run table: the two edges of size-bins.txt, their one home
# (the analysis reads the file too), compiled into helper/experiment/pfabric-size-bins.cc alone.
# Included by the module's CMakeLists.txt and by test/fuzz/CMakeLists.txt (wscript reads the file
# itself).
#   pfabric_size_bins(MODULE_ROOT SOURCE): give SOURCE (helper/experiment/pfabric-size-bins.cc, as
#   the caller names it) the edges as PFABRIC_SMALL_FLOW_BYTES and PFABRIC_LARGE_FLOW_BYTES; a
#   change of the file reconfigures.
function(pfabric_size_bins module_root source)
  file(STRINGS ${module_root}/size-bins.txt bins REGEX "^[0-9]+$")
  list(LENGTH bins count)
  if(NOT count EQUAL 2)
    message(FATAL_ERROR "pfabric: size-bins.txt: expected two edges in bytes, one a line")
  endif()
  list(GET bins 0 small)
  list(GET bins 1 large)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${module_root}/size-bins.txt)
  set_source_files_properties(
    ${source}
    PROPERTIES COMPILE_DEFINITIONS
               "PFABRIC_SMALL_FLOW_BYTES=${small}ULL;PFABRIC_LARGE_FLOW_BYTES=${large}ULL"
  )
endfunction()
