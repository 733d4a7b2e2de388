# A profile's collapsed stacks (async-profiler's "collapsed" output: frames joined by ';', then a count), summed
# for reading in a terminal or a doc: the share of samples by thread group; by thread group and where the leaf
# frame is (kernel, Java, native), with the system call the stack went through; and the heaviest frames of
# couchbench's and Gatling's own code, inclusive. Run by the bench scripts' PROFILE=1, or by hand:
#   zcat docs/profiles/memget.collapsed.gz | awk -f bench/profile-summary.awk
{
  n = $NF; line = $0; sub(/ [0-9]+$/, "", line); depth = split(line, f, ";")
  group = f[1]; gsub(/[-#]?[0-9]* tid=[0-9]*\]/, "]", group)
  leaf = f[depth]; where = leaf ~ /_\[k\]$/ ? "kernel" : (leaf ~ /\// ? "java" : "native")
  call = ""
  for (i = 2; i <= depth; i++) if (f[i] ~ /^(__GI___send|send|recv|read|write|writev|epoll_pwait2?|epoll_wait|io_uring_enter|__futex_abstimed_wait_common|___pthread_cond_signal)$/) call = f[i]
  total += n; byGroup[group] += n; byPlace[group " " where (call == "" ? "" : " in " call)] += n
  delete seen
  for (i = 2; i <= depth; i++) if (f[i] ~ /^(couchbench|io\/gatling)\// && !(f[i] in seen)) { seen[f[i]] = 1; inclusive[f[i]] += n }
}
END {
  printf "%d samples\n\nby thread group:\n", total
  for (g in byGroup) if (byGroup[g] >= total / 1000) printf "%6.1f%%  %s\n", 100 * byGroup[g] / total, g | "sort -rn"
  close("sort -rn")
  print "\nby thread group and place (leaf frame), with the system call on the stack:"
  for (p in byPlace) if (byPlace[p] >= total / 200) printf "%6.1f%%  %s\n", 100 * byPlace[p] / total, p | "sort -rn"
  close("sort -rn")
  print "\ncouchbench's and Gatling's frames, inclusive (the 30 heaviest):"
  for (fr in inclusive) printf "%6.1f%%  %s\n", 100 * inclusive[fr] / total, fr | "sort -rn | head -30"
  close("sort -rn | head -30")
}
