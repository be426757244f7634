# fstapi.cmake: GTKWave's FST library (fstapi.c, fastlz.c) built from the
# sources Debian's verilator package installs, as the static library target
# `fstapi`, with the system zlib and liblz4 (not the bundled lz4.c).
# gatepower writes FST through it (the power waveform; tests and benchmarks
# write dumps) and reads FST with a reader of its own (src/vcd/fst_*.c), which
# takes FastLZ's decompressor from here.  It is third-party code: compiled
# with its warnings off, without -Werror, and without UBSan (it stores to
# misaligned addresses by design; ASan stays).
# Linking `fstapi` defines GATEPOWER_HAVE_FST for its users.  Without the
# sources (or liblz4), `fstapi` is an empty interface target and FST files
# are answered "no FST support in this build" (src/vcd/fst_absent.c).
set(GATEPOWER_FSTAPI_DIR /usr/share/verilator/include/gtkwave
    CACHE PATH "Directory with GTKWave's fstapi.c, fstapi.h, fastlz.c")
find_library(GATEPOWER_LZ4_LIBRARY NAMES lz4)

if(EXISTS ${GATEPOWER_FSTAPI_DIR}/fstapi.c AND EXISTS ${GATEPOWER_FSTAPI_DIR}/fastlz.c
   AND GATEPOWER_LZ4_LIBRARY)
  add_library(fstapi STATIC ${GATEPOWER_FSTAPI_DIR}/fstapi.c ${GATEPOWER_FSTAPI_DIR}/fastlz.c)
  target_include_directories(fstapi SYSTEM PUBLIC ${GATEPOWER_FSTAPI_DIR})
  target_compile_definitions(fstapi PRIVATE FST_CONFIG_INCLUDE="fst_config.h" _DEFAULT_SOURCE
                             INTERFACE GATEPOWER_HAVE_FST=1)
  target_compile_options(fstapi PRIVATE -w -Wno-error -fno-sanitize=undefined)
  set_target_properties(fstapi PROPERTIES C_EXTENSIONS ON POSITION_INDEPENDENT_CODE ON)
  target_link_libraries(fstapi PUBLIC ZLIB::ZLIB ${GATEPOWER_LZ4_LIBRARY} Threads::Threads)
  message(STATUS "gatepower: FST support ON (${GATEPOWER_FSTAPI_DIR})")
else()
  add_library(fstapi INTERFACE)
  message(STATUS "gatepower: FST support OFF (no fstapi sources in ${GATEPOWER_FSTAPI_DIR} or no liblz4)")
endif()
