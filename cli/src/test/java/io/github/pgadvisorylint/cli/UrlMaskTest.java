package io.github.pgadvisorylint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Every form of a database URL that can hold a password is shown with it masked. */
class UrlMaskTest {

    @Test
    void userInfoPasswordsAreMaskedInEveryForm() {
        assertThat(UrlMask.mask("jdbc:postgresql://user:password@host/db"))
                .isEqualTo("jdbc:postgresql://user:****@host/db");
        assertThat(UrlMask.mask("jdbc:postgresql://u:p@h1:5432,h2:5433/db"))
                .isEqualTo("jdbc:postgresql://u:****@h1:5432,h2:5433/db");
        // a password holding the characters that end a URL's parts
        assertThat(UrlMask.mask("jdbc:postgresql://u:p@s:s/w,o?r#d@host/db?ssl=true"))
                .isEqualTo("jdbc:postgresql://u:****@host/db?ssl=true");
        assertThat(UrlMask.mask("jdbc:postgresql://u:pa?ss@host/db")).isEqualTo("jdbc:postgresql://u:****@host/db");
        assertThat(UrlMask.mask("postgresql://u:secret@host/db")).isEqualTo("postgresql://u:****@host/db");
        assertThat(UrlMask.password("jdbc:postgresql://u:p@h1:5432,h2:5433/db")).isEqualTo("p");
    }

    @Test
    void passwordParametersAreMasked() {
        assertThat(UrlMask.mask("jdbc:postgresql://h/db?user=u&password=s3cret&ssl=true"))
                .isEqualTo("jdbc:postgresql://h/db?user=u&password=****&ssl=true");
        assertThat(UrlMask.mask("jdbc:postgresql://h/db?PASSWORD=a&sslpassword=b"))
                .isEqualTo("jdbc:postgresql://h/db?PASSWORD=****&sslpassword=****");
    }

    @Test
    void urlsWithoutCredentialsAreLeftAlone() {
        for (String url : new String[] {
            "jdbc:postgresql://db.internal:5432/invoices?user=ops",
            "jdbc:postgresql://h/db?user=me@corp",
            "jdbc:postgresql://user@host/db",
            "jdbc:postgresql:db",
            "jdbc:postgresql://h1:5432,h2:5433/db"
        }) {
            assertThat(UrlMask.mask(url)).isEqualTo(url);
            assertThat(UrlMask.password(url)).isNull();
        }
    }

    @Test
    void urlsInsideMessagesAreMasked() {
        assertThat(UrlMask.maskIn("no such file or directory: jdbc:postgresql://u:pw@h/db (given as PATH)"))
                .isEqualTo("no such file or directory: jdbc:postgresql://u:****@h/db (given as PATH)");
        assertThat(UrlMask.maskIn("Unmatched argument at index 2: 'jdbc:postgresql://h/db?password=pw'"))
                .isEqualTo("Unmatched argument at index 2: 'jdbc:postgresql://h/db?password=****'");
        assertThat(UrlMask.maskIn("nothing here: a:b@c")).isEqualTo("nothing here: a:b@c");
    }
}
