#!/bin/bash
# Summarize a hwp-log record of the emulated HWP machine (tests/55 and
# whoever else needs it). Usage: tools/qemu-hwp/parse-log.sh LOG [CPU]
# Phases are delimited by EPB writes on CPU (default 0; "ev=epb val=N",
# N = phase, see tools/qemu-hwp/smoke-guest.sh); before any marker is phase 0.
# Prints key=value lines:
#   writes=N          HWP_REQUEST writes (all vCPUs)
#   des_writes=N      of which with DESIRED != 0
#   bad=N             writes with DESIRED != 0 outside [MIN, MAX] (MIN > MAX too)
#   bad_first=LINE    the first such write
#   gp=N              #GP raised for unimplemented MSRs; gp_msrs=0x..,0x..
#   pN_writes=N pN_des_max=N pN_des_min=N pN_des_last=N   per phase, on CPU
#   pN_des_start=N    DESIRED in effect on CPU when phase N began
#   pN_des_hi=N pN_des_lo=N   max/min of DESIRED in effect during phase N
#                     (the start value and the phase's writes)
#   pN_level_max=N pN_level_last=N   running level on CPU in phase N
#                     (including the level in effect when it began)
#   levels=N          running-level changes (all vCPUs)
#   turbo_writes=N    changes of the MISC_ENABLE turbo-disable bit
set -euo pipefail
[ $# -ge 1 ] && [ -r "$1" ] || { echo "usage: $0 LOG [CPU]" >&2; exit 2; }
awk -v want="${2:-0}" '
function kv(s,   n, i, a, p) {
	delete f
	n = split(s, a, " ")
	for (i = 1; i <= n; i++) {
		p = index(a[i], "=")
		if (p) f[substr(a[i], 1, p - 1)] = substr(a[i], p + 1)
	}
}
BEGIN { phase = 0; writes = 0; des = 0; bad = 0; gp = 0; levels = 0; cur = 0; curlv = ""; turbo = 0 }
{
	kv($0)
	if (f["ev"] == "epb" && f["cpu"] == want) {
		phase = f["val"] + 0; seen[phase] = 1
		p[phase, "start"] = cur; p[phase, "hi"] = cur; p[phase, "lo"] = cur
		if (curlv != "") { p[phase, "lmax"] = curlv; p[phase, "llast"] = curlv }
		next
	}
	if (f["ev"] == "turbo") { turbo++; next }
	if (f["ev"] == "gp") { gp++; if (!(f["msr"] in gpm)) { gpm[f["msr"]] = 1; gplist = gplist (gplist == "" ? "" : ",") f["msr"] } ; next }
	if (f["ev"] == "level") {
		levels++
		if (f["cpu"] == want) {
			lv = f["new"] + 0
			curlv = lv
			if (!((phase, "lmax") in p) || lv > p[phase, "lmax"]) p[phase, "lmax"] = lv
			p[phase, "llast"] = lv
			seen[phase] = 1
		}
		next
	}
	if (f["ev"] != "req") next
	writes++
	mn = f["min"] + 0; mx = f["max"] + 0; d = f["des"] + 0
	if (d != 0) {
		des++
		if (mn > mx || d < mn || d > mx) { bad++; if (badfirst == "") badfirst = $0 }
	}
	if (f["cpu"] != want) next
	seen[phase] = 1
	p[phase, "w"]++
	if (!((phase, "max") in p) || d > p[phase, "max"]) p[phase, "max"] = d
	if (!((phase, "min") in p) || d < p[phase, "min"]) p[phase, "min"] = d
	p[phase, "last"] = d
	cur = d
	if (!((phase, "hi") in p) || d > p[phase, "hi"]) p[phase, "hi"] = d
	if (!((phase, "lo") in p) || d < p[phase, "lo"]) p[phase, "lo"] = d
}
END {
	print "writes=" writes
	print "des_writes=" des
	print "bad=" bad
	if (badfirst != "") print "bad_first=" badfirst
	print "gp=" gp
	print "gp_msrs=" gplist
	print "levels=" levels
	print "turbo_writes=" turbo
	for (ph = 0; ph <= 15; ph++) {
		if (!(ph in seen)) continue
		printf "p%d_writes=%d\n", ph, p[ph, "w"] + 0
		if ((ph, "max") in p) {
			printf "p%d_des_max=%d\np%d_des_min=%d\np%d_des_last=%d\n", ph, p[ph, "max"], ph, p[ph, "min"], ph, p[ph, "last"]
		}
		if ((ph, "start") in p) printf "p%d_des_start=%d\n", ph, p[ph, "start"]
		if ((ph, "hi") in p) printf "p%d_des_hi=%d\np%d_des_lo=%d\n", ph, p[ph, "hi"], ph, p[ph, "lo"]
		if ((ph, "lmax") in p) printf "p%d_level_max=%d\np%d_level_last=%d\n", ph, p[ph, "lmax"], ph, p[ph, "llast"]
	}
}' "$1"
