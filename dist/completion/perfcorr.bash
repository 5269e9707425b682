# bash completion for perfcorr. Commands, options and values come from
# the binary itself (`perfcorr __complete WORD...`, src/cmd/complete.c):
# the same tables as --help, the importer registry and the database named
# by --db or $PERFCORR_DB. Needs nothing from the bash-completion package.
_perfcorr()
{
	local line=${COMP_LINE:0:COMP_POINT} cur tail wb
	local -a words out
	# Split on blanks only: workload keys and SRC@VERSION hold = and :,
	# which bash's COMP_WORDBREAKS would cut.
	read -r -a words <<<"$line"
	[[ $line =~ [[:space:]]$ ]] && words+=("")
	((${#words[@]} >= 2)) || return 0
	cur=${words[${#words[@]}-1]}
	mapfile -t out < <("${words[0]}" __complete "${words[@]:1}" 2>/dev/null)
	case ${out[0]-} in
	:files)
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		return 0 ;;
	:dirs)
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -d -- "$cur")
		return 0 ;;
	esac
	# Readline replaces only the text after the last word-break
	# character; drop what comes before it from each candidate.
	wb=${COMP_WORDBREAKS//[[:space:]\"\'><;|&(]/}
	tail=$cur
	[[ -n $wb ]] && tail=${cur##*[$wb]}
	COMPREPLY=("${out[@]/#"${cur:0:${#cur}-${#tail}}"/}")
	# A value that continues (SRC@, param.NAME=) takes no space.
	if ((${#COMPREPLY[@]} == 1)) && [[ ${COMPREPLY[0]} == *[@=] ]]; then
		compopt -o nospace 2>/dev/null
	fi
	return 0
}
complete -F _perfcorr perfcorr
