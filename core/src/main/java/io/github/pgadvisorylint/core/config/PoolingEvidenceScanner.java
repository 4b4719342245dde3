package io.github.pgadvisorylint.core.config;

import io.github.pgadvisorylint.core.model.PoolingMode;
import io.github.pgadvisorylint.core.source.SourceDecoder;
import io.github.pgadvisorylint.core.source.SourceFile;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;

/**
 * Finds evidence of the connection pooling mode in one configuration file, for
 * {@code session-lock-under-transaction-pooling} (RULES.md; fact F10: PgBouncer never supports
 * session-level advisory locks in transaction pooling, see PgBouncer's documentation, "Features" and
 * "Configuration", {@code pool_mode}).
 *
 * <p>Declared evidence (the file names the mode):
 * <ul>
 *   <li>PgBouncer ini ({@code pgbouncer.ini}, or any {@code .ini}/{@code .conf}/{@code .cfg} with a
 *       {@code [pgbouncer]}, {@code [databases]} or {@code [users]} section): {@code pool_mode} in
 *       {@code [pgbouncer]}; {@code pool_mode=} in a {@code [databases]}/{@code [users]} connection string;
 *       also an ini embedded in YAML under a key ending in {@code .ini} (a ConfigMap);</li>
 *   <li>{@code POOL_MODE} / {@code PGBOUNCER_POOL_MODE} in {@code .env} files, in YAML environment
 *       collections (compose {@code environment:} as a map or a list of {@code NAME=value}, Kubernetes
 *       {@code env:} items with {@code name}/{@code value}, other {@code *env}/{@code *environment} keys),
 *       and in ConfigMap {@code data} / Secret {@code stringData};</li>
 *   <li>YAML {@code pool_mode}/{@code poolMode} under a key naming PgBouncer (Helm values, a CloudNativePG
 *       {@code Pooler}) and Zalando postgres-operator's {@code connectionPooler.mode}.</li>
 * </ul>
 * A mode of {@code session} is evidence too (of {@link PoolingMode#SESSION}).
 *
 * <p>Inferred evidence (always {@link PoolingMode#TRANSACTION}): a PostgreSQL URL
 * ({@code jdbc:postgresql:}, {@code postgres://}, {@code postgresql://}, {@code r2dbc:postgresql://}) in
 * any value, outside comments, on port 6432 (PgBouncer's default) or 6543 (Supabase's transaction
 * pooler), to a host whose name contains {@code pgbouncer} or {@code -pooler}, or with
 * {@code prepareThreshold=0}; multi-host URLs count when any host matches; placeholders
 * {@code ${NAME:default}} and {@code ${NAME:-default}} count as their default. A driver property
 * {@code ...prepareThreshold} set to 0 is inferred evidence too. One URL gives one piece of evidence,
 * pointing at the port, else the host, else the parameter.
 *
 * <p>Formats by file name: {@code .properties}; {@code .yml}/{@code .yaml} (multi-document); {@code .env},
 * {@code *.env}, {@code .env.*}; PgBouncer ini as above; everything else ({@code .xml}, HOCON {@code .conf},
 * other) is read line by line for URLs, without comments. Instances are stateless and thread-safe.
 */
public final class PoolingEvidenceScanner {

    private static final String[] NEEDLES = {
        "pool_mode",
        "poolmode",
        "jdbc:postgresql",
        "postgres://",
        "postgresql://",
        "6432",
        "6543",
        "pgbouncer",
        "pooler",
        "preparethreshold"
    };
    private static final byte[][] NEEDLE_BYTES = Arrays.stream(NEEDLES)
            .map(n -> n.getBytes(StandardCharsets.US_ASCII))
            .toArray(byte[][]::new);

    /** Creates a scanner; it holds no state. */
    public PoolingEvidenceScanner() {}

    /**
     * Cheap byte-level test: could this config file hold evidence? True when the content contains,
     * ignoring ASCII case, one of {@code pool_mode} (so {@code POOL_MODE}), {@code poolMode},
     * {@code jdbc:postgresql}, {@code postgres://}, {@code postgresql://}, {@code 6432}, {@code 6543},
     * {@code pgbouncer}, {@code pooler} (so {@code -pooler}, {@code connectionPooler}) or
     * {@code prepareThreshold}. UTF-16 content with a byte-order mark is decoded first.
     *
     * @param content the file's bytes; null counts as empty
     * @return false when {@link #scan} would certainly find no evidence
     */
    public static boolean mayHoldEvidence(byte[] content) {
        if (content == null || content.length == 0) {
            return false;
        }
        if (SourceDecoder.isUtf16(content)) {
            String s = SourceDecoder.decode(content).text().toLowerCase(Locale.ROOT);
            for (String n : NEEDLES) {
                if (s.contains(n)) {
                    return true;
                }
            }
            return false;
        }
        byte[][] needles = NEEDLE_BYTES;
        for (int i = 0; i < content.length; i++) {
            int b = lower(content[i]);
            if (b != 'p' && b != 'j' && b != '6') {
                continue;
            }
            for (byte[] n : needles) {
                if (n[0] == b && i + n.length <= content.length && matchesAt(content, i, n)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean matchesAt(byte[] content, int at, byte[] needle) {
        for (int k = 1; k < needle.length; k++) {
            if (lower(content[at + k]) != needle[k]) {
                return false;
            }
        }
        return true;
    }

    private static int lower(byte b) {
        return b >= 'A' && b <= 'Z' ? b + 32 : b;
    }

    /**
     * Reads one configuration file. Never throws: YAML or ini that cannot be parsed becomes a located
     * {@code WARNING} notification of kind {@code config-parse-error}, and the rest of the file is still
     * read where possible (the documents before a YAML error; the remaining lines of an ini).
     *
     * @param file the file; its path picks the format (see the class comment)
     * @return the evidence sorted by region (duplicates at one region merged), and the notifications
     */
    public ConfigScan scan(SourceFile file) {
        EvidenceSink sink = new EvidenceSink(file);
        String text = file.text();
        String name = fileName(file.path());
        try {
            switch (format(name, text)) {
                case PROPERTIES -> PropertiesConfig.scan(text, sink);
                case YAML -> YamlConfig.scan(text, sink);
                case DOTENV -> DotenvConfig.scan(LineSource.of(text, 0, text.length()), sink);
                case INI -> IniConfig.scan(LineSource.of(text, 0, text.length()), name, sink);
                case XML -> LexicalConfig.scan(text, 0, text.length(), LexicalConfig.Comments.XML, false, "", sink);
                default -> LexicalConfig.scan(text, 0, text.length(), LexicalConfig.Comments.ANY, false, "", sink);
            }
        } catch (RuntimeException | StackOverflowError e) {
            sink.parseProblem(
                    0,
                    "configuration file could not be read completely ("
                            + e.getClass().getSimpleName() + "); evidence may be missing");
        }
        return sink.result();
    }

    /** The reader a file gets. */
    enum Format {
        PROPERTIES,
        YAML,
        DOTENV,
        INI,
        XML,
        OTHER
    }

    static Format format(String fileName, String text) {
        String n = fileName.toLowerCase(Locale.ROOT);
        if (n.endsWith(".properties")) {
            return Format.PROPERTIES;
        }
        if (n.endsWith(".yml") || n.endsWith(".yaml")) {
            return Format.YAML;
        }
        if (n.equals(".env") || n.endsWith(".env") || n.startsWith(".env.")) {
            return Format.DOTENV;
        }
        if (n.equals("pgbouncer.ini")
                || ((n.endsWith(".ini") || n.endsWith(".conf") || n.endsWith(".cfg"))
                        && IniConfig.looksLikePgBouncer(text))) {
            return Format.INI;
        }
        if (n.endsWith(".xml")) {
            return Format.XML;
        }
        return Format.OTHER;
    }

    private static String fileName(String path) {
        int slash = path.lastIndexOf('/');
        return slash < 0 ? path : path.substring(slash + 1);
    }
}
