# fish completion for perfcorr: the binary's own engine (`perfcorr
# __complete WORD...`, src/cmd/complete.c) answers; ":files"/":dirs"
# hand over to fish's path completion.
function __perfcorr_complete
	set -l words (commandline -opc) (commandline -ct)
	set -l out ($words[1] __complete $words[2..-1] 2>/dev/null)
	switch "$out[1]"
		case :files
			__fish_complete_path (commandline -ct)
		case :dirs
			__fish_complete_directories (commandline -ct)
		case '*'
			printf '%s\n' $out
	end
end
complete -c perfcorr -f -a '(__perfcorr_complete)'
