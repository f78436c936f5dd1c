# mmscale's driver: the config's MMSCALE_* variables as the bench's options
# (those the config leaves empty keep the bench's defaults). MMSCALE_EXTRA
# (more mmscale flags) and MMSCALE_BIN reach the bench through the
# environment: a shellpack option's value may not start with '-'.
run_bench() {
	local args=() opt var
	for opt in cases threads placement repetitions min-time papi-events iterations; do
		var=MMSCALE_$(echo $opt | tr a-z- A-Z_)
		[ "${!var}" = "" ] || args+=(--$opt "${!var}")
	done
	$SHELLPACK_INCLUDE/shellpack-bench-mmscale "${args[@]}"
	return $?
}
