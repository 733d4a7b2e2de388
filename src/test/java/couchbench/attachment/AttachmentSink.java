package couchbench.attachment;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import couchbench.HttpReplies;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;

/**
 * A loopback stand-in for CouchDB's attachment uploads that costs the server next to nothing (a
 * benchmark helper, not a test; see docs/attachments.md): it reads every upload as it streams in,
 * keeps only each attachment's length and MD5, and answers as CouchDB does, so that AttachmentUpload
 * can upload and verify 10^9 bytes by raw, base64 and multipart where pouchdb-server runs out of
 * memory, and so that a client's own cost shows against curl's. Raw bodies are hashed as they come,
 * base64 is decoded while the JSON is parsed (Jackson's streaming {@code readBinaryValue}), a
 * multipart body's attachment part is the {@code length} its JSON part names. Not CouchDB: no
 * revisions, no storage, no bulk.
 *
 * <p>Usage: {@code AttachmentSink PORT}; it runs until killed.
 */
public final class AttachmentSink {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final JsonFactory FACTORY = new JsonFactory();
  private static final byte[] CRLF_CRLF = {'\r', '\n', '\r', '\n'};

  /** Length and digest of each document's attachment, by "db/doc". */
  private final Map<String, long[]> lengths = new ConcurrentHashMap<>();
  private final Map<String, String> digests = new ConcurrentHashMap<>();

  private AttachmentSink() {}

  public static void main(String[] args) throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", Integer.parseInt(args[0])), 16);
    AttachmentSink sink = new AttachmentSink();
    server.createContext("/", exchange -> {
      try {
        sink.answer(exchange);
      } catch (IOException | RuntimeException e) {
        HttpReplies.json(exchange, 500, "{\"error\":\"sink\",\"reason\":\"" + e.getClass().getSimpleName() + "\"}");
      }
    });
    server.setExecutor(Executors.newFixedThreadPool(4));
    server.start();
  }

  private void answer(HttpExchange exchange) throws IOException {
    String method = exchange.getRequestMethod();
    String[] path = exchange.getRequestURI().getPath().substring(1).split("/", 3);
    String type = String.valueOf(exchange.getRequestHeaders().getFirst("Content-Type"));
    InputStream body = new BufferedInputStream(exchange.getRequestBody(), 1 << 16);
    if (path[0].isEmpty()) {
      HttpReplies.json(exchange, 200, "{\"couchdb\":\"Welcome\",\"version\":\"3.4.2\",\"vendor\":{\"name\":\"couchbench sink\"}}");
    } else if (path.length == 1) {
      HttpReplies.json(exchange, method.equals("PUT") ? 201 : 200, "{\"ok\":true}");
    } else if (method.equals("GET") && path.length == 2) {
      document(exchange, path[0] + "/" + path[1]);
    } else if (method.equals("PUT") && path.length == 3) {
      store(path[0] + "/" + path[1], body, Long.MAX_VALUE);
      created(exchange, path[1]);
    } else if (method.equals("PUT") && type.startsWith("multipart/related")) {
      multipart(path[0] + "/" + path[1], body);
      created(exchange, path[1]);
    } else if (method.equals("PUT")) {
      inline(path[0] + "/" + path[1], body);
      created(exchange, path[1]);
    } else {
      body.transferTo(OutputStream.nullOutputStream());
      HttpReplies.json(exchange, 400, "{\"error\":\"bad_request\",\"reason\":\"the sink takes single-document uploads only\"}");
    }
  }

  /** Hashes up to max bytes of the stream as the attachment of a document. */
  private void store(String doc, InputStream in, long max) throws IOException {
    MessageDigest md5 = md5();
    long length = copy(in, new DigestOutputStream(OutputStream.nullOutputStream(), md5), max);
    lengths.put(doc, new long[] {length});
    digests.put(doc, "md5-" + Base64.getEncoder().encodeToString(md5.digest()));
  }

  /** A document whose attachment is inline: its "data" string is decoded as it is parsed. */
  private void inline(String doc, InputStream in) throws IOException {
    MessageDigest md5 = md5();
    long[] length = {0};
    OutputStream counted = new DigestOutputStream(new OutputStream() {
      @Override
      public void write(int b) {
        length[0]++;
      }

      @Override
      public void write(byte[] b, int off, int len) {
        length[0] += len;
      }
    }, md5);
    try (JsonParser parser = FACTORY.createParser(in)) {
      for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
        if (token == JsonToken.FIELD_NAME && parser.currentName().equals("data")) {
          parser.nextToken();
          parser.readBinaryValue(counted);
        }
      }
    }
    lengths.put(doc, length);
    digests.put(doc, "md5-" + Base64.getEncoder().encodeToString(md5.digest()));
  }

  /** The JSON part names the attachment's length; the attachment part's bytes follow its headers. */
  private void multipart(String doc, InputStream in) throws IOException {
    skipPast(in, CRLF_CRLF); // first boundary and the JSON part's headers
    StringBuilder json = new StringBuilder();
    for (int c = in.read(); c >= 0 && c != '\r'; c = in.read()) {
      json.append((char) c);
    }
    long length = JSON.readTree(json.toString()).path("_attachments").path(AttachmentBodies.NAME).path("length").asLong();
    skipPast(in, CRLF_CRLF); // second boundary and the attachment part's headers
    store(doc, in, length);
    in.transferTo(OutputStream.nullOutputStream());
  }

  private void document(HttpExchange exchange, String doc) throws IOException {
    if (!lengths.containsKey(doc)) {
      HttpReplies.json(exchange, 404, "{\"error\":\"not_found\",\"reason\":\"missing\"}");
      return;
    }
    ObjectNode attachment = JSON.createObjectNode().put("content_type", AttachmentBodies.CONTENT_TYPE)
        .put("length", lengths.get(doc)[0]).put("digest", digests.get(doc)).put("stub", true);
    ObjectNode reply = JSON.createObjectNode().put("_id", doc.substring(doc.indexOf('/') + 1)).put("_rev", "1-sink");
    reply.putObject("_attachments").set(AttachmentBodies.NAME, attachment);
    HttpReplies.json(exchange, 200, JSON.writeValueAsString(reply));
  }

  private static void created(HttpExchange exchange, String id) throws IOException {
    HttpReplies.json(exchange, 201, "{\"ok\":true,\"id\":\"" + id + "\",\"rev\":\"1-sink\"}");
  }

  private static long copy(InputStream in, OutputStream out, long max) throws IOException {
    byte[] buffer = new byte[1 << 16];
    long total = 0;
    while (total < max) {
      int n = in.read(buffer, 0, (int) Math.min(buffer.length, max - total));
      if (n < 0) {
        break;
      }
      out.write(buffer, 0, n);
      total += n;
    }
    return total;
  }

  private static void skipPast(InputStream in, byte[] marker) throws IOException {
    int matched = 0;
    while (matched < marker.length) {
      int c = in.read();
      if (c < 0) {
        throw new IOException("multipart body ended early");
      }
      matched = c == marker[matched] ? matched + 1 : (c == marker[0] ? 1 : 0);
    }
  }

  private static MessageDigest md5() {
    try {
      return MessageDigest.getInstance("MD5");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
