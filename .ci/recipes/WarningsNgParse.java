import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import edu.hm.hafner.analysis.FileReaderFactory;
import edu.hm.hafner.analysis.Issue;
import edu.hm.hafner.analysis.Report;
import edu.hm.hafner.analysis.Severity;
import edu.hm.hafner.analysis.parser.CheckStyleParser;
import edu.hm.hafner.analysis.parser.violations.SarifAdapter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Reads a pg-advisory-lint Checkstyle XML and SARIF report with the parsers of the Jenkins Warnings NG plugin
 * (its analysis-model library: checkStyle() and sarif() in a pipeline) and checks that they see what the JSON
 * report of the same scan holds: every finding and located notification, at its file and line, with the
 * severity Warnings NG gives the Checkstyle level (error: ERROR, warning: WARNING_NORMAL, info: WARNING_LOW).
 * Run by .ci/test-recipes.sh: java -cp CLASSPATH WarningsNgParse.java REPORT.xml REPORT.sarif REPORT.json
 */
public final class WarningsNgParse {
    private static final Map<String, Severity> CHECKSTYLE_LEVEL = Map.of(
            "error", Severity.ERROR, "warning", Severity.WARNING_NORMAL, "note", Severity.WARNING_LOW);

    private WarningsNgParse() {
    }

    public static void main(String[] args) throws IOException {
        JsonObject json = JsonParser.parseString(Files.readString(Path.of(args[2]), StandardCharsets.UTF_8))
                .getAsJsonObject();
        // path:line SEVERITY type, and the message each must start with (Checkstyle appends related places)
        Map<String, String> expected = new TreeMap<>();
        for (JsonElement e : json.getAsJsonArray("findings")) {
            JsonObject f = e.getAsJsonObject();
            if (f.get("suppression").isJsonNull()) {
                expected.put(key(f, f.get("ruleId").getAsString()), f.get("message").getAsString());
            }
        }
        int notifications = 0;
        for (JsonElement e : json.getAsJsonArray("notifications")) {
            JsonObject n = e.getAsJsonObject();
            if (n.has("path") && !n.get("path").isJsonNull()) {
                expected.put(key(n, n.get("kind").getAsString()), n.get("message").getAsString());
                notifications++;
            }
        }

        // Warnings NG's checkStyle(): the type is the source attribute's last dot-separated part.
        Report checkstyle = new CheckStyleParser().parse(new FileReaderFactory(Path.of(args[0])));
        Map<String, String> seen = new TreeMap<>();
        List<String> problems = new ArrayList<>();
        for (Issue issue : checkstyle) {
            seen.put(issue.getFileName() + ":" + issue.getLineStart() + " " + issue.getSeverity() + " "
                    + issue.getType(), issue.getMessage());
        }
        if (!seen.keySet().equals(expected.keySet())) {
            problems.add("checkstyle: Warnings NG read " + seen.keySet() + ", the JSON report has " + expected.keySet());
        } else {
            expected.forEach((place, message) -> {
                if (!seen.get(place).startsWith(message)) {
                    problems.add("checkstyle: message at " + place + " read as " + seen.get(place)
                            + ", the JSON report has " + message);
                }
            });
        }
        if (checkstyle.hasErrors()) {
            problems.add("checkstyle: parser errors " + checkstyle.getErrorMessages());
        }

        // Warnings NG's sarif(): every result at its file and line.
        Report sarif = new SarifAdapter().parse(new FileReaderFactory(Path.of(args[1])));
        TreeSet<String> sarifSeen = new TreeSet<>();
        for (Issue issue : sarif) {
            sarifSeen.add(issue.getFileName() + ":" + issue.getLineStart());
        }
        TreeSet<String> findingPlaces = new TreeSet<>();
        for (JsonElement e : json.getAsJsonArray("findings")) {
            JsonObject f = e.getAsJsonObject();
            findingPlaces.add(f.get("path").getAsString() + ":" + f.get("line").getAsInt());
        }
        if (!sarifSeen.equals(findingPlaces)) {
            problems.add("sarif: Warnings NG read " + sarifSeen + ", the JSON report has " + findingPlaces);
        }
        if (sarif.hasErrors()) {
            problems.add("sarif: parser errors " + sarif.getErrorMessages());
        }

        System.out.printf("warnings-ng: checkStyle() read %d issues (%d of them notifications) as the JSON report has"
                + " them, sarif() read %d results%n", checkstyle.size(), notifications, sarif.size());
        if (!problems.isEmpty()) {
            problems.forEach(p -> System.out.println("warnings-ng: " + p));
            System.exit(1);
        }
    }

    private static String key(JsonObject item, String type) {
        String level = item.has("severity") ? item.get("severity").getAsString() : item.get("level").getAsString();
        return item.get("path").getAsString() + ":" + item.get("line").getAsInt() + " " + CHECKSTYLE_LEVEL.get(level)
                + " " + type;
    }
}
