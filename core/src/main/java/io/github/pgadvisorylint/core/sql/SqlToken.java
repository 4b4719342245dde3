package io.github.pgadvisorylint.core.sql;

import java.util.Locale;

/**
 * One lexical token of PostgreSQL text, with exact offsets into the analysed text.
 *
 * @param type  the token type
 * @param start offset of the first character (UTF-16 index), inclusive
 * @param end   offset just past the last character, exclusive
 * @param text  the token text as written ({@code text.length() == end - start})
 */
record SqlToken(Type type, int start, int end, String text) {

    /** Token types. Comments and white space produce no token. */
    enum Type {
        /** Unquoted identifier or key word, case-insensitive. */
        IDENT,
        /** {@code "quoted identifier"}, case-sensitive. */
        QUOTED_IDENT,
        /** Numeric literal as PostgreSQL would start it, greedily including trailing letters and digits. */
        NUMBER,
        /** {@code '..'}, {@code E'..'}, {@code B'..'}, {@code X'..'}, {@code N'..'}, {@code U&'..'}. */
        STRING,
        /** {@code $tag$ .. $tag$} (possibly unterminated: then it runs to the end of the text). */
        DOLLAR_STRING,
        /** {@code ?}, {@code $1}, {@code :name}, MyBatis {@code #{..}} and {@code ${..}}. */
        PARAM,
        /** Operator characters; {@code ::} and {@code :=} are one token, other operators one char each. */
        OPERATOR,
        /** One of {@code ( ) [ ] { } , ; .} */
        PUNCT,
        /** Any other character. */
        OTHER
    }

    /** @return true for an unquoted identifier equal to {@code word} ignoring case (ASCII) */
    boolean is(String word) {
        return type == Type.IDENT && text.equalsIgnoreCase(word);
    }

    /** @return true for punctuation or operator text equal to {@code p} */
    boolean isPunct(String p) {
        return (type == Type.PUNCT || type == Type.OPERATOR) && text.equals(p);
    }

    /** @return the identifier's name: lower-cased when unquoted, inner text when quoted, else null */
    String identName() {
        if (type == Type.IDENT) {
            return text.toLowerCase(Locale.ROOT);
        }
        if (type == Type.QUOTED_IDENT && text.length() >= 2 && text.endsWith("\"")) {
            return text.substring(1, text.length() - 1).replace("\"\"", "\"");
        }
        return null;
    }

    /** @return for a dollar-quoted string, the length of its opening tag ({@code $$} = 2, {@code $body$} = 6) */
    int dollarTagLength() {
        int second = text.indexOf('$', 1);
        return second < 0 ? text.length() : second + 1;
    }
}
