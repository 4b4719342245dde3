package io.github.pgadvisorylint.core.sql;

import io.github.pgadvisorylint.core.model.ConcurrentIndexBuild;
import io.github.pgadvisorylint.core.source.SourceFile;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the statements that build an index concurrently (fact F21): {@code CREATE [UNIQUE] INDEX CONCURRENTLY} and
 * {@code REINDEX ... CONCURRENTLY} (both forms: {@code REINDEX INDEX CONCURRENTLY x} and {@code REINDEX
 * (CONCURRENTLY) INDEX x}). In SQL files by tokens, so comments, strings and dollar-quoted bodies never count; in
 * other text (Java migrations, changelogs) by a pattern on lines that are not comments.
 */
public final class ConcurrentIndexScanner {

    private static final Pattern IN_TEXT = Pattern.compile(
            "\\b(?:CREATE\\s+(?:UNIQUE\\s+)?INDEX\\s+CONCURRENTLY|REINDEX\\s+(?:\\(\\s*CONCURRENTLY"
                    + "|(?:INDEX|TABLE|SCHEMA|DATABASE)\\s+CONCURRENTLY))\\b",
            Pattern.CASE_INSENSITIVE);

    private ConcurrentIndexScanner() {}

    /**
     * @param file a SQL file
     * @return its concurrent index builds, in source order
     */
    public static List<ConcurrentIndexBuild> inSql(SourceFile file) {
        String text = file.text();
        List<SqlToken> tokens = SqlLexer.lex(text, 0, text.length());
        List<ConcurrentIndexBuild> out = new ArrayList<>();
        boolean statementStart = true;
        for (int i = 0; i < tokens.size(); i++) {
            SqlToken t = tokens.get(i);
            if (t.type() == SqlToken.Type.PUNCT && t.text().equals(";")) {
                statementStart = true;
                continue;
            }
            if (!statementStart) {
                continue;
            }
            statementStart = false;
            String kind = null;
            if (t.is("CREATE")) {
                int j = i + 1;
                if (j < tokens.size() && tokens.get(j).is("UNIQUE")) {
                    j++;
                }
                if (j + 1 < tokens.size()
                        && tokens.get(j).is("INDEX")
                        && tokens.get(j + 1).is("CONCURRENTLY")) {
                    kind = j == i + 2 ? "CREATE UNIQUE INDEX CONCURRENTLY" : "CREATE INDEX CONCURRENTLY";
                }
            } else if (t.is("REINDEX")) {
                for (int j = i + 1; j < tokens.size() && j <= i + 6; j++) {
                    SqlToken u = tokens.get(j);
                    if (u.type() == SqlToken.Type.PUNCT && u.text().equals(";")) {
                        break;
                    }
                    if (u.is("CONCURRENTLY")) {
                        kind = "REINDEX CONCURRENTLY";
                        break;
                    }
                }
            }
            if (kind != null) {
                out.add(new ConcurrentIndexBuild(file.region(t.start(), t.end()), kind));
            }
        }
        return out;
    }

    /**
     * @param file a migration that is not a SQL file (a Java migration, a Liquibase changelog)
     * @return the concurrent index builds written in it outside comment lines, in source order
     */
    public static List<ConcurrentIndexBuild> inText(SourceFile file) {
        List<ConcurrentIndexBuild> out = new ArrayList<>();
        Matcher m = IN_TEXT.matcher(file.text());
        while (m.find()) {
            String line = file.lineText(file.lineOf(m.start())).strip();
            if (line.startsWith("//")
                    || line.startsWith("--")
                    || line.startsWith("#")
                    || line.startsWith("*")
                    || line.startsWith("/*")
                    || line.startsWith("<!--")) {
                continue;
            }
            String words = m.group().toUpperCase(Locale.ROOT).replaceAll("\\s+", " ");
            String kind = words.startsWith("REINDEX")
                    ? "REINDEX CONCURRENTLY"
                    : words.contains("UNIQUE") ? "CREATE UNIQUE INDEX CONCURRENTLY" : "CREATE INDEX CONCURRENTLY";
            out.add(new ConcurrentIndexBuild(file.region(m.start(), m.start() + 6), kind));
        }
        return out;
    }
}
