# included-at-once.awk: reads `otter dump --no-time --kind
# task_create,task_schedule`; every task created with the flag `included`
# must be the next task its thread switches to, from its creator (it runs
# at once, before its creator goes on). Prints each one that is not and
# exits 1; exits 1 too when there is none at all (nothing was checked).
function field(line, name,    i, n, parts) {
  n = split(line, parts, " ")
  for (i = 1; i <= n; i++)
    if (index(parts[i], name "=") == 1)
      return substr(parts[i], length(name) + 2)
  return ""
}
/^thread / { pending = 0; next }
pending {
  if ($1 != "task_schedule" || field($0, "status") != "switch" ||
      field($0, "prior") != creator || field($0, "next") != child) {
    print "included task " child " is not run at once by its creator: " $0
    bad = 1
  }
  pending = 0
}
$1 == "task_create" && field($0, "flags") ~ /(^|\|)included(\||$)/ {
  creator = field($0, "creator"); child = field($0, "child")
  pending = 1; seen++
}
END {
  if (pending) { print "included task " child " is never run"; bad = 1 }
  if (!seen) { print "no included task"; bad = 1 }
  exit bad
}
