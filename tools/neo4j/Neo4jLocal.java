// Casegraph: a real Neo4j Community 5.26 server for tests and local use, without Docker.
//
// Runs Neo4j embedded (org.neo4j:neo4j from Maven Central) with the Bolt connector on
// 127.0.0.1 and a persistent home directory. Started by tools/neo4j/run.sh:
//
//   java -cp 'tools/neo4j/target/lib/*' tools/neo4j/Neo4jLocal.java
//
// Environment:
//   NEO4J_LOCAL_PORT      Bolt port (default 7687)
//   NEO4J_LOCAL_DIR       Neo4j home: data/, logs/ live under it (default .data/neo4j)
//   NEO4J_LOCAL_PASSWORD  unset/empty: auth disabled. Set: auth enabled, user "neo4j" with
//                         this password (re-applied at every start, no forced change).
//   NEO4J_LOCAL_PAGECACHE page cache size in MiB (default 128)
//   NEO4J_LOCAL_EXIT_WITH_PARENT=1  stop when the parent process dies (run.sh foreground mode)
//
// Prints "NEO4J READY bolt://127.0.0.1:<port>" once Bolt accepts connections and
// "NEO4J STOPPED" after a clean shutdown (SIGTERM / SIGINT / Ctrl-C).

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.neo4j.configuration.GraphDatabaseInternalSettings;
import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.connectors.HttpConnector;
import org.neo4j.configuration.connectors.HttpsConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;
import org.neo4j.graphdb.GraphDatabaseService;
import org.neo4j.io.ByteUnit;
import org.neo4j.logging.Level;
import org.neo4j.logging.log4j.Log4jLogProvider;

public class Neo4jLocal {
    private static final String HOST = "127.0.0.1";

    public static void main(String[] args) throws Exception {
        int port = intEnv("NEO4J_LOCAL_PORT", 7687);
        long pageCacheMb = intEnv("NEO4J_LOCAL_PAGECACHE", 128);
        String dirEnv = System.getenv("NEO4J_LOCAL_DIR");
        Path home = Path.of(dirEnv == null || dirEnv.isBlank() ? ".data/neo4j" : dirEnv).toAbsolutePath().normalize();
        String password = System.getenv("NEO4J_LOCAL_PASSWORD");
        boolean auth = password != null && !password.isEmpty();

        Path logs = home.resolve("logs");
        Files.createDirectories(logs);

        if (portInUse(port)) {
            fail("port " + HOST + ":" + port + " is already in use (another Neo4j running? try `bash tools/neo4j/run.sh status`)");
        }

        System.out.println("NEO4J STARTING home=" + home + " bolt=" + HOST + ":" + port + " auth=" + (auth ? "on (user neo4j)" : "off"));

        // User-facing log (what a server would write to neo4j.log); debug.log goes to the same folder.
        OutputStream userLogStream = new FileOutputStream(logs.resolve("neo4j.log").toFile(), true);
        Log4jLogProvider userLog = new Log4jLogProvider(userLogStream, Level.INFO);

        // The hook is registered before the DBMS is built so that a SIGTERM during start-up
        // still ends in a clean shutdown (it waits for build() to finish first).
        AtomicReference<DatabaseManagementService> dbmsRef = new AtomicReference<>();
        CountDownLatch built = new CountDownLatch(1);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println("NEO4J STOPPING");
            try {
                built.await(120, TimeUnit.SECONDS);
                DatabaseManagementService service = dbmsRef.get();
                if (service != null) {
                    service.shutdown();
                }
            } catch (Throwable t) {
                System.err.println("NEO4J shutdown error: " + t);
            }
            try {
                userLog.close();
                userLogStream.close();
            } catch (IOException ignored) {
                // best effort
            }
            System.out.println("NEO4J STOPPED");
            stopped.countDown();
        }, "neo4j-local-shutdown"));

        DatabaseManagementService dbms;
        try {
            dbms = new DatabaseManagementServiceBuilder(home)
                    .setUserLogProvider(userLog)
                    .setConfig(Map.of(
                            // Network: Bolt on loopback only, no HTTP(S).
                            GraphDatabaseSettings.default_listen_address, new SocketAddress(HOST),
                            BoltConnector.enabled, true,
                            BoltConnector.listen_address, new SocketAddress(HOST, port),
                            BoltConnector.advertised_address, new SocketAddress(HOST, port),
                            BoltConnector.encryption_level, BoltConnector.EncryptionLevel.DISABLED,
                            HttpConnector.enabled, false,
                            HttpsConnector.enabled, false,
                            // Stop in ~1 s instead of ~10 s (Netty graceful-shutdown quiet periods).
                            GraphDatabaseInternalSettings.netty_server_shutdown_quiet_period, 0,
                            GraphDatabaseInternalSettings.netty_server_shutdown_timeout, Duration.ofSeconds(5)))
                    .setConfig(Map.of(
                            // Auth.
                            GraphDatabaseSettings.auth_enabled, auth,
                            GraphDatabaseSettings.auth_minimum_password_length, 1,
                            // Small footprint: the dev box also runs PostgreSQL, Next.js and Chromium.
                            GraphDatabaseSettings.pagecache_memory, ByteUnit.mebiBytes(pageCacheMb),
                            GraphDatabaseSettings.memory_transaction_global_max_size, ByteUnit.mebiBytes(256),
                            GraphDatabaseSettings.keep_logical_logs, "100M size",
                            GraphDatabaseSettings.logical_log_rotation_threshold, ByteUnit.mebiBytes(32),
                            GraphDatabaseSettings.preallocate_logical_logs, false,
                            GraphDatabaseSettings.udc_enabled, false,
                            GraphDatabaseSettings.logs_directory, logs))
                    .build();
            dbmsRef.set(dbms);
            built.countDown();
        } catch (Throwable t) {
            built.countDown(); // before fail(): System.exit blocks this thread while the hook runs
            t.printStackTrace();
            fail("could not start Neo4j: " + t + " (see " + logs.resolve("debug.log") + ")");
            return;
        }

        try {
            if (auth) {
                applyPassword(dbms.database(GraphDatabaseSettings.SYSTEM_DATABASE_NAME), password);
            }
            // Make sure the default database is online, then wait for Bolt to accept connections.
            dbms.database(GraphDatabaseSettings.DEFAULT_DATABASE_NAME).executeTransactionally("RETURN 1");
            waitForPort(port, Duration.ofSeconds(60));
        } catch (Throwable t) {
            t.printStackTrace();
            fail("Neo4j started but is not usable: " + t + " (see " + logs.resolve("debug.log") + ")");
        }

        System.out.println("NEO4J READY bolt://" + HOST + ":" + port);
        if ("1".equals(System.getenv("NEO4J_LOCAL_EXIT_WITH_PARENT"))) {
            exitWithParent();
        }
        stopped.await();
    }

    /** Ensure user neo4j exists, has exactly this password and no forced password change. */
    private static void applyPassword(GraphDatabaseService system, String password) {
        Map<String, Object> params = Map.of("pw", password);
        system.executeTransactionally(
                "CREATE USER neo4j IF NOT EXISTS SET PLAINTEXT PASSWORD $pw CHANGE NOT REQUIRED", params);
        try {
            system.executeTransactionally(
                    "ALTER USER neo4j SET PLAINTEXT PASSWORD $pw CHANGE NOT REQUIRED", params);
        } catch (RuntimeException e) {
            // Neo4j refuses to "change" a password to its current value; that is fine here.
            String msg = String.valueOf(e.getMessage()).toLowerCase();
            if (!msg.contains("cannot be the same")) {
                throw e;
            }
            system.executeTransactionally("ALTER USER neo4j SET PASSWORD CHANGE NOT REQUIRED");
        }
    }

    /**
     * Foreground mode: stop when the parent process dies. `npm run` forwards SIGTERM only to
     * its `sh -c` child, which dies without passing it on; without this the JVM would be
     * orphaned and keep the port.
     */
    private static void exitWithParent() {
        ProcessHandle.current().parent().ifPresent(parent -> {
            Thread watcher = new Thread(() -> {
                while (parent.isAlive()) {
                    try {
                        Thread.sleep(1000);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                System.out.println("NEO4J parent process " + parent.pid() + " exited; shutting down");
                System.exit(0);
            }, "neo4j-local-parent-watch");
            watcher.setDaemon(true);
            watcher.start();
        });
    }

    private static boolean portInUse(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(HOST, port), 300);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static void waitForPort(int port, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (portInUse(port)) {
                return;
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("Bolt did not accept connections on " + HOST + ":" + port + " within " + timeout);
    }

    private static int intEnv(String name, int dflt) {
        String v = System.getenv(name);
        if (v == null || v.isBlank()) {
            return dflt;
        }
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            fail(name + " must be an integer, got '" + v + "'");
            return dflt;
        }
    }

    private static void fail(String message) {
        System.out.println("NEO4J FAILED " + message);
        System.err.println("neo4j-local: " + message);
        System.out.flush();
        System.exit(1); // runs the shutdown hook (clean DBMS shutdown) if it is registered

    }
}
