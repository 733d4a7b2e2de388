# Reads `tcpdump -n -tt` lines of keep-alive HTTP connections to one server port (-v port=P) and
# prints, per connection, how its time splits between the two ends, in milliseconds:
#   requests  requests sent (a request is the client's data after the server's, or its first)
#   server    mean time from a request's first byte to its reply's last byte (the server's work)
#   client    mean time from a reply's last byte to the next request's first byte (the client's own
#             work between requests: reading and checking the reply, building the next request)
#   first     the connection's first request, seconds since the epoch
# Connections without a reply are left out.
{
  ts = $1; src = $3; dst = $5; sub(/:$/, "", dst)
  len = $NF + 0
  if (len <= 0) next
  fromClient = (dst ~ "\\." port "$")
  c = fromClient ? src : dst
  if (fromClient) {
    if (!(c in requests)) { requests[c] = 1; first[c] = ts; start[c] = ts }
    else if (replied[c]) { requests[c]++; client[c] += ts - last[c]; server[c] += last[c] - start[c]; start[c] = ts }
    replied[c] = 0
  } else if (c in requests) {
    last[c] = ts; replied[c] = 1
  }
}
END {
  print "requests,server,client,first"
  for (c in requests) if (c in last) {
    n = requests[c]
    server[c] += last[c] - start[c] # the last request's reply
    printf "%d,%.3f,%.3f,%.6f\n", n, 1000 * server[c] / n, (n > 1 ? 1000 * client[c] / (n - 1) : 0), first[c]
  }
}
