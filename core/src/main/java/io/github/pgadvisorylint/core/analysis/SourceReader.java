package io.github.pgadvisorylint.core.analysis;

import io.github.pgadvisorylint.core.config.PoolingEvidenceScanner;
import io.github.pgadvisorylint.core.config.TimeoutEvidenceScanner;
import io.github.pgadvisorylint.core.diagnostic.Notification;
import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.discovery.DiscoveredFile;
import io.github.pgadvisorylint.core.discovery.FileKind;
import io.github.pgadvisorylint.core.discovery.Prefilter;
import io.github.pgadvisorylint.core.facts.FileFacts;
import io.github.pgadvisorylint.core.io.BoundedReads;
import io.github.pgadvisorylint.core.java.JavaOutline;
import io.github.pgadvisorylint.core.model.PoolingSetting;
import io.github.pgadvisorylint.core.mybatis.MyBatisMapperFrontEnd;
import io.github.pgadvisorylint.core.source.SourceDecoder;
import io.github.pgadvisorylint.core.source.SourceFile;
import io.github.pgadvisorylint.core.source.SourceRegion;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Reads one file and says what it is ({@link Staged}): the prefilter, the size limit, decoding,
 * binary detection, mapper and configuration detection. Every read goes through
 * {@link BoundedReads#read}, so a file that grew or was replaced by a pipe or a device after it was
 * listed is skipped with a notification, never read without limit. Stateless between files: what it finds is
 * returned, never stored, so it runs on any worker.
 */
final class SourceReader {

    /** Files larger than this are skipped with a notification (bytes). */
    static final long MAX_FILE_BYTES = 16L * 1024 * 1024;

    /**
     * What reading a file gave.
     *
     * @param staged      what the file is
     * @param sha256      the hash of its bytes when the cache wants it, else null
     * @param bytesCalled true when the prefilter ruled a Java file out but its text calls one of the
     *                    names asked about (see {@link #read(DiscoveredFile, boolean, Predicate, Set)})
     */
    record Read(Staged staged, String sha256, boolean bytesCalled) {}

    private final PoolingSetting pooling;
    private final boolean hashing;
    private final Predicate<DiscoveredFile> alwaysHash;

    /**
     * @param pooling    the pooling setting (configuration files are read for evidence only under AUTO)
     * @param hashing    whether a cache is in use (files that can take part are hashed)
     * @param alwaysHash files to hash even when the prefilter rules them out (they took part in the
     *                   cached analysis, or are named like a type it watched)
     */
    SourceReader(PoolingSetting pooling, boolean hashing, Predicate<DiscoveredFile> alwaysHash) {
        this.pooling = pooling;
        this.hashing = hashing;
        this.alwaysHash = alwaysHash;
    }

    /**
     * Reads and classifies a file.
     *
     * @param f        the file
     * @param force    true to skip the prefilter (files read for their constants or helper calls)
     * @param wanted   decides on the text (ISO-8859-1: one char per byte, enough for ASCII names)
     *                 whether to go on; null for every file
     * @param askNames names whose call in a Java file the prefilter rules out is worth knowing of
     *                 ({@link Read#bytesCalled}); empty for none
     * @return what the file is; never throws
     */
    Read read(DiscoveredFile f, boolean force, Predicate<String> wanted, Set<String> askNames) {
        try {
            if (f.size() > MAX_FILE_BYTES) {
                return new Read(
                        new Staged.Known(FileFacts.failed(
                                f.relativePath(),
                                List.of(new Notification(
                                        Severity.WARNING,
                                        "file-too-large",
                                        "file is " + f.size() + " bytes, over the limit of " + MAX_FILE_BYTES
                                                + "; skipped",
                                        SourceRegion.line(f.relativePath(), 1))))),
                        null,
                        false);
            }
            byte[] bytes = BoundedReads.read(f.path(), MAX_FILE_BYTES);
            if (wanted != null && !wanted.test(latin1(bytes))) {
                // not wanted now; its hash tells the next analysis whether that may have changed
                return new Read(Staged.Out.OUT, hashing ? sha256(bytes) : null, false);
            }
            Staged staged = classify(f, bytes, force);
            boolean called = !force
                    && staged instanceof Staged.Out
                    && f.kind() == FileKind.JAVA
                    && !askNames.isEmpty()
                    && callsAny(latin1(bytes), askNames);
            String hash = hashing && (force || called || !(staged instanceof Staged.Out) || alwaysHash.test(f))
                    ? sha256(bytes)
                    : null;
            return new Read(staged, hash, called);
        } catch (BoundedReads.SpecialFileException e) {
            // listed as a regular file, since replaced (by a pipe, or a link to /dev/zero): never opened
            return skipped(f, "special-file", e.description() + ", not a regular file; not read");
        } catch (BoundedReads.TooLargeException e) {
            // listed under the limit, grown since: read no further than the limit
            return skipped(
                    f,
                    "file-too-large",
                    "file grew over the limit of " + e.limit() + " bytes after it was listed; skipped");
        } catch (IOException e) {
            return new Read(
                    new Staged.Known(FileFacts.failed(
                            f.relativePath(),
                            List.of(new Notification(
                                    Severity.WARNING,
                                    "unreadable-file",
                                    "cannot read file: " + e.getClass().getSimpleName()
                                            + (e.getMessage() == null ? "" : " (" + e.getMessage() + ")"),
                                    SourceRegion.line(f.relativePath(), 1))))),
                    null,
                    false);
        }
    }

    private static Read skipped(DiscoveredFile f, String kind, String message) {
        return new Read(
                new Staged.Known(FileFacts.failed(
                        f.relativePath(),
                        List.of(new Notification(
                                Severity.WARNING, kind, message, SourceRegion.line(f.relativePath(), 1))))),
                null,
                false);
    }

    private Staged classify(DiscoveredFile f, byte[] bytes, boolean force) {
        boolean utf16 = SourceDecoder.isUtf16(bytes);
        if (f.kind() == FileKind.CONFIG
                && f.relativePath().endsWith(".xml")
                && (utf16
                        ? Prefilter.mentionsAdvisory(SourceDecoder.decode(bytes).text())
                        : Prefilter.mentionsAdvisory(bytes))) {
            SourceFile xml =
                    new SourceFile(f.relativePath(), SourceDecoder.decode(bytes).text());
            if (MyBatisMapperFrontEnd.mayBeMapper(xml.text())) {
                Optional<String> namespace = MyBatisMapperFrontEnd.mapperNamespace(xml);
                if (namespace.isPresent()) {
                    return new Staged.Mapper(xml, namespace.get());
                }
            }
        }
        if (f.kind() == FileKind.CONFIG) {
            return (pooling == PoolingSetting.AUTO && PoolingEvidenceScanner.mayHoldEvidence(bytes))
                            || TimeoutEvidenceScanner.mayHoldEvidence(bytes)
                    ? new Staged.Config(new SourceFile(
                            f.relativePath(), SourceDecoder.decode(bytes).text()))
                    : Staged.Out.OUT;
        }
        if (!force && !utf16 && !Prefilter.mentionsAdvisory(bytes)) {
            return Staged.Out.OUT;
        }
        SourceDecoder.Decoded decoded = SourceDecoder.decode(bytes);
        if (!force && utf16 && !Prefilter.mentionsAdvisory(decoded.text())) {
            return Staged.Out.OUT;
        }
        if (!utf16 && looksBinary(bytes)) {
            return new Staged.Known(FileFacts.failed(
                    f.relativePath(),
                    List.of(new Notification(
                            Severity.WARNING,
                            "binary-file",
                            "file holds NUL bytes: not text; skipped",
                            SourceRegion.line(f.relativePath(), 1)))));
        }
        return new Staged.Text(new SourceFile(f.relativePath(), decoded.text()), decoded.lossy());
    }

    /** @return the bytes as ISO-8859-1 text: one char per byte, enough to find ASCII names */
    static String latin1(byte[] bytes) {
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    /**
     * Whether a text may call one of the names (a cheap test before parsing): the name starting a word,
     * then, past white space, comments and type arguments ({@code new Held<>(}, {@code new Held<String>(}),
     * an opening parenthesis. Errs towards yes: a file it passes is parsed and asked again.
     */
    static boolean callsAny(String text, Set<String> names) {
        if (names.isEmpty()) {
            return false;
        }
        int shortest = Integer.MAX_VALUE;
        int longest = 0;
        for (String name : names) {
            shortest = Math.min(shortest, name.length());
            longest = Math.max(longest, name.length());
        }
        // one pass over the words, each looked up: linear in the text whatever the number of names
        int n = text.length();
        int i = 0;
        while (i < n) {
            if (!Character.isJavaIdentifierPart(text.charAt(i))) {
                i++;
                continue;
            }
            int end = i + 1;
            while (end < n && Character.isJavaIdentifierPart(text.charAt(end))) {
                end++;
            }
            int length = end - i;
            if (length >= shortest && length <= longest && names.contains(text.substring(i, end))) {
                int after = JavaOutline.skipSpace(text, end);
                if (after < n && text.charAt(after) == '<') {
                    after = JavaOutline.skipSpace(text, afterTypeArguments(text, after));
                }
                if (after < n && text.charAt(after) == '(') {
                    return true;
                }
            }
            i = end;
        }
        return false;
    }

    /**
     * @param open the offset of a {@code <}
     * @return the offset after the matching {@code >} when only what type arguments are made of lies
     *     between (names, dots, commas, wildcards, arrays, bounds, annotations, white space, comments), else
     *     {@code open} (not type arguments: a comparison)
     */
    private static int afterTypeArguments(String text, int open) {
        int depth = 0;
        for (int i = open; i < text.length() && i - open < 4096; i++) {
            char c = text.charAt(i);
            if (c == '<') {
                depth++;
            } else if (c == '>') {
                if (--depth == 0) {
                    return i + 1;
                }
            } else if (!Character.isJavaIdentifierPart(c) && !Character.isWhitespace(c) && ".,?[]&@/*".indexOf(c) < 0) {
                return open;
            }
        }
        return open;
    }

    /** Whether a text holds one of the names as a whole word. */
    static boolean mentionsAny(String text, Set<String> names) {
        for (String name : names) {
            int at = text.indexOf(name);
            while (at >= 0) {
                int end = at + name.length();
                boolean wordStart = at == 0 || !Character.isJavaIdentifierPart(text.charAt(at - 1));
                boolean wordEnd = end >= text.length() || !Character.isJavaIdentifierPart(text.charAt(end));
                if (wordStart && wordEnd) {
                    return true;
                }
                at = text.indexOf(name, at + 1);
            }
        }
        return false;
    }

    /** @return the lower-case hex SHA-256 of the bytes (also the base of finding fingerprints) */
    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    private static boolean looksBinary(byte[] bytes) {
        int n = Math.min(bytes.length, 8192);
        for (int i = 0; i < n; i++) {
            if (bytes[i] == 0) {
                return true;
            }
        }
        return false;
    }
}
