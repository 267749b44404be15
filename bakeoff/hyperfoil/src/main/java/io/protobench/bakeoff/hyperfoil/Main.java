package io.protobench.bakeoff.hyperfoil;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;

/**
 * Open-model HTTP/1.1 load with Hyperfoil 0.25.2 embedded as a library (no controller, no CLI):
 * a constantRate phase "warmup" then a constantRate phase "measure", and one JSON line on stdout
 * describing the measure phase only. Exit 0 = done, 2 = bad arguments or unreachable URL, 1 = run failed.
 */
public final class Main {

   public static void main(String[] argv) {
      // Before any logger exists: hyperfoil-core ships a log4j2.xml that logs INFO to stdout.
      System.setProperty("log4j.configurationFile", "bakeoff-log4j2.xml");
      Args args;
      try {
         args = Args.parse(argv);
      } catch (IllegalArgumentException e) {
         die(2, e.getMessage() + (argv.length == 0 ? "\n" + Args.USAGE : ""));
         return;
      }
      preflight(args);
      Map<String, Object> result;
      try {
         result = HyperfoilRun.execute(args);
      } catch (RuntimeException e) {
         die(1, "run failed: " + e);
         return;
      }
      System.out.println(toJson(result));
      System.out.flush();
      System.exit(0); // Hyperfoil/Vert.x may leave non-daemon threads behind
   }

   /** One plain GET outside Hyperfoil, so an unreachable URL is a clear error rather than a hung run. */
   private static void preflight(Args a) {
      HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(3)).build();
      try {
         client.send(HttpRequest.newBuilder(a.url()).timeout(Duration.ofSeconds(a.timeoutS())).GET().build(),
               HttpResponse.BodyHandlers.discarding());
      } catch (HttpTimeoutException e) {
         if (e instanceof HttpConnectTimeoutException) {
            die(2, "cannot reach " + a.url() + ": connect timed out");
         } // else: connected, just slower than --timeout; the run will count those as timeouts
      } catch (IOException e) {
         die(2, "cannot reach " + a.url() + ": " + e.getClass().getSimpleName()
               + (e.getMessage() == null ? "" : " (" + e.getMessage() + ")"));
      } catch (InterruptedException e) {
         die(1, "interrupted");
      }
   }

   static void die(int code, String message) {
      System.err.println("bakeoff-hyperfoil: " + message);
      System.err.flush();
      System.exit(code);
   }

   private static String toJson(Map<String, Object> fields) {
      StringBuilder sb = new StringBuilder("{");
      for (Map.Entry<String, Object> e : fields.entrySet()) {
         if (sb.length() > 1) sb.append(',');
         sb.append('"').append(e.getKey()).append("\":");
         Object v = e.getValue();
         if (v instanceof Double d) {
            sb.append(String.format(Locale.ROOT, "%.3f", d));
         } else if (v instanceof Number || v instanceof Boolean) {
            sb.append(v);
         } else {
            sb.append('"').append(String.valueOf(v).replace("\\", "\\\\").replace("\"", "\\\"")).append('"');
         }
      }
      return sb.append('}').toString();
   }
}
