# Reads `tcpdump -n -tt` lines of HTTP connections to one server port (-v port=P) and prints, per
# connection, what the wire saw, in milliseconds:
#   connect   SYN to the client's first request byte (handshake, then the client's own delay)
#   server    first request byte to the last reply byte (the server's work, plus loopback)
#   close     last reply byte to the client's FIN or RST (the client's delay in closing)
#   total     SYN to the client's FIN or RST
# Connections without a request or a reply are left out.
function ms(t) { return sprintf("%.3f", 1000 * t) }
{
  ts = $1; src = $3; dst = $5; sub(/:$/, "", dst)
  flags = $0; sub(/.*Flags \[/, "", flags); sub(/\].*/, "", flags)
  len = $NF + 0
  fromClient = (dst ~ "\\." port "$")
  client = fromClient ? src : dst
  if (fromClient && flags ~ /S/ && !(client in syn)) syn[client] = ts
  if (fromClient && len > 0 && !(client in req)) req[client] = ts
  if (!fromClient && len > 0) last[client] = ts
  if (fromClient && flags ~ /[FR]/ && !(client in fin)) fin[client] = ts
}
END {
  print "connect,server,close,total"
  for (c in syn) if ((c in req) && (c in last) && (c in fin))
    print ms(req[c] - syn[c]) "," ms(last[c] - req[c]) "," ms(fin[c] - last[c]) "," ms(fin[c] - syn[c])
}
