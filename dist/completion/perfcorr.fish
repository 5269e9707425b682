# fish completion for perfcorr: the binary's own engine (`perfcorr
# __complete WORD...`, src/cmd/complete.c) answers; ":files"/":dirs"
# hand over to fish's path completion.
function __perfcorr_complete
	# "$cur" keeps an empty current word as one (empty) argument
	set -l cur (commandline -ct)
	set -l words (commandline -opc) "$cur"
	set -l out ($words[1] __complete $words[2..-1] 2>/dev/null)
	switch "$out[1]"
		case :files
			__fish_complete_path "$cur"
		case :dirs
			__fish_complete_directories "$cur"
		case '*'
			printf '%s\n' $out
	end
end
complete -c perfcorr -f -a '(__perfcorr_complete)'
