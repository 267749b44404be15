package io.protobench.bakeoff.hyperfoil;

import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/** Command-line options; every failure is an {@link IllegalArgumentException} with a one-line message. */
record Args(URI url, String host, int port, String path, int rate, int warmupS, int durationS,
            int maxSessions, int connections, int threads, int expectStatus, int timeoutS) {

   static final String USAGE = "usage: java -jar bakeoff-hyperfoil.jar --url http://HOST:PORT/PATH --rate N"
         + " --warmup S --duration S --max-sessions N [--connections 16] [--expect-status 200]"
         + " [--threads 1] [--timeout 10]";
   private static final Set<String> KNOWN = Set.of("url", "rate", "warmup", "duration", "max-sessions",
         "connections", "expect-status", "threads", "timeout");

   static Args parse(String[] argv) {
      Map<String, String> o = new HashMap<>();
      for (int i = 0; i < argv.length; i++) {
         String a = argv[i];
         if (!a.startsWith("--")) throw new IllegalArgumentException("unexpected argument '" + a + "'");
         String key = a.substring(2), value;
         int eq = key.indexOf('=');
         if (eq >= 0) {
            value = key.substring(eq + 1);
            key = key.substring(0, eq);
         } else if (i + 1 < argv.length) {
            value = argv[++i];
         } else {
            throw new IllegalArgumentException("--" + key + " needs a value");
         }
         if (!KNOWN.contains(key)) throw new IllegalArgumentException("unknown option --" + key);
         o.put(key, value);
      }
      String u = required(o, "url");
      URI url;
      try {
         url = new URI(u);
      } catch (Exception e) {
         throw new IllegalArgumentException("--url '" + u + "' is not a URL");
      }
      if (!"http".equals(url.getScheme()) || url.getHost() == null) {
         throw new IllegalArgumentException("--url must be http://HOST[:PORT]/PATH, got '" + u + "'");
      }
      String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
      if (url.getRawQuery() != null) path += "?" + url.getRawQuery();
      int connections = number(o, "connections", "16", 1);
      int threads = number(o, "threads", "1", 1);
      if (connections < threads) {
         throw new IllegalArgumentException("--connections (" + connections + ") must be at least --threads (" + threads + ")");
      }
      return new Args(url, url.getHost(), url.getPort() < 0 ? 80 : url.getPort(), path,
            number(o, "rate", null, 1), number(o, "warmup", null, 0), number(o, "duration", null, 1),
            number(o, "max-sessions", null, 1), connections, threads,
            number(o, "expect-status", "200", 100), number(o, "timeout", "10", 1));
   }

   private static String required(Map<String, String> o, String key) {
      String v = o.get(key);
      if (v == null) throw new IllegalArgumentException("--" + key + " is required");
      return v;
   }

   private static int number(Map<String, String> o, String key, String dflt, int min) {
      String v = o.getOrDefault(key, dflt);
      if (v == null) throw new IllegalArgumentException("--" + key + " is required");
      try {
         int n = Integer.parseInt(v.trim());
         if (n < min) throw new IllegalArgumentException("--" + key + " must be >= " + min + ", got " + n);
         return n;
      } catch (NumberFormatException e) {
         throw new IllegalArgumentException("--" + key + " must be a whole number, got '" + v + "'");
      }
   }
}
