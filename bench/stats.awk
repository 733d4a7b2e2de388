# Order statistics for the bench scripts' reports; a list is a string of space-separated numbers.
function sorted(list, v,   n, i, j, x) {
  n = split(list, v, " ")
  for (i = 2; i <= n; i++) { x = v[i] + 0; for (j = i - 1; j > 0 && v[j] + 0 > x; j--) v[j + 1] = v[j]; v[j + 1] = x }
  return n
}
function median(list,   v, n) { n = sorted(list, v); return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }
function spread(list,   v, n) { n = sorted(list, v); return sprintf("%.2f-%.2f", v[1], v[n]) }
