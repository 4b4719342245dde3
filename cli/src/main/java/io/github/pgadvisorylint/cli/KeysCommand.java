package io.github.pgadvisorylint.cli;

import io.github.pgadvisorylint.core.keys.KeyInventory;
import io.github.pgadvisorylint.core.report.KeyInventoryWriter;
import io.github.pgadvisorylint.core.report.KeyInventoryWriter.Format;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code keys [PATH...]}: the inventory of every advisory-lock key in the scanned files, with the
 * {@code pg_locks} columns each one shows as, where its value was written, the functions using it and
 * every site. Runs no rule; exits 0 unless the command line or the input is wrong (2).
 */
@Command(
        name = "keys",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Lists every advisory-lock key: key space, value, the pg_locks classid/objid/objsubid it"
                    + " shows as, its origin (constant or literal), the functions, levels and modes using it, and"
                    + " every site. Keys not known statically are listed with their expression.",
            "The scan root is PATH when exactly one directory is given, else the current directory;"
                    + " paths are relative to --path-base (the git root above the scan root by default)."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:the inventory was written",
            "2:usage or input error: bad option or value, no such path, unwritable output",
            "3:internal error: a bug, please report it (--debug prints the stack trace)"
        },
        footer = {
            "%nExamples:",
            "  pg-advisory-lint keys .",
            "  pg-advisory-lint keys --format csv --output keys.csv src"
        })
final class KeysCommand implements Callable<Integer> {

    /** Converts {@code text|json|csv|markdown}, any case. */
    static final class FormatConverter implements ITypeConverter<Format> {
        @Override
        public Format convert(String value) {
            try {
                return Format.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException("'" + value + "' is not one of text, json, csv, markdown");
            }
        }
    }

    private final Environment env;

    @Spec
    private CommandSpec spec;

    @Mixin
    private ModelCommand.Options options = new ModelCommand.Options();

    @Option(
            names = {"-f", "--format"},
            paramLabel = "FORMAT",
            converter = FormatConverter.class,
            defaultValue = "text",
            description = "Output format: text, json, csv or markdown (default: ${DEFAULT-VALUE}).")
    private Format format;

    /** @param env the analysis and the working directory */
    KeysCommand(Environment env) {
        this.env = env;
    }

    @Override
    public Integer call() {
        return ModelCommand.run(spec, env, options, result -> {
            KeyInventory inventory = KeyInventory.of(result.model());
            return out -> KeyInventoryWriter.write(inventory, format, out);
        });
    }
}
