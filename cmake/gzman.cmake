# Compress the generated man pages for installing (Debian policy: gzip -9n,
# no name or timestamp in the header, so builds are reproducible).
#   -DIN=build/man -DOUT=build/man-gz
file(REMOVE_RECURSE ${OUT})
file(GLOB pages RELATIVE ${IN} ${IN}/man*/perfcorr*)
find_program(GZIP gzip)
foreach(p ${pages})
	get_filename_component(dir ${OUT}/${p} DIRECTORY)
	file(MAKE_DIRECTORY ${dir})
	if(GZIP)
		execute_process(COMMAND ${GZIP} -9n -c ${IN}/${p}
			OUTPUT_FILE ${OUT}/${p}.gz RESULT_VARIABLE rc)
		if(NOT rc EQUAL 0)
			message(FATAL_ERROR "gzip ${p} failed")
		endif()
	else()
		file(COPY ${IN}/${p} DESTINATION ${dir})
	endif()
endforeach()
