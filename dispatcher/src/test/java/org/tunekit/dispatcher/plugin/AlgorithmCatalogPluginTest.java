package org.tunekit.dispatcher.plugin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.spi.SpiVersion;
import org.tunekit.sdk.spi.TunerProvider;

/** Loading plugin jars: SPI versions, missing methods, and the mistakes a plugin author makes. */
class AlgorithmCatalogPluginTest {
    @TempDir
    Path tmp;

    private static AlgorithmSpec tuner(String name) {
        return new AlgorithmSpec(AlgorithmKind.TUNER, name, null, null, ClassArguments.of(java.util.Map.of()));
    }

    private Path plugins() {
        return tmp.resolve("plugins");
    }

    @Test
    void aWorkingPluginRecordsTheSpiVersionItWasCompiledAgainstAndLoads() throws Exception {
        Path jar = PluginJars.tuner("ok", "Okay", "return new T();").service(TunerProvider.class, "ok.P").build(plugins().resolve("ok.jar"));
        try (var jf = new java.util.jar.JarFile(jar.toFile())) {
            assertThat(PluginJars.utf8(jf.getInputStream(jf.getEntry(SpiVersion.RECORD_RESOURCE)).readAllBytes()))
                    .contains("spi-version=" + SpiVersion.current()).contains("ok.P");
        }
        AlgorithmCatalog catalog = AlgorithmCatalog.discover(List.of(plugins()));
        assertThat(catalog.problems()).isEmpty();
        assertThat(catalog.create(tuner("okay"), Tuner.class).getClass().getName()).isEqualTo("ok.T");
    }

    @Test
    void aPluginBuiltAgainstANewerSpiIsRefusedNamingJarProviderAndBothVersions() {
        String newer = SpiVersion.MAJOR + "." + (SpiVersion.MINOR + 1);
        Path jar = PluginJars.tuner("newer", "Newer", "return new T();").service(TunerProvider.class, "newer.P")
                .resource(SpiVersion.RECORD_RESOURCE, "spi-version=" + newer + "\n").withoutProcessors()
                .build(plugins().resolve("newer.jar"));
        AlgorithmCatalog catalog = AlgorithmCatalog.discover(List.of(plugins()));
        assertThat(catalog.problems()).singleElement().asString()
                .contains(jar.toString(), "newer.P", "SPI " + newer, "this Tunekit has SPI " + SpiVersion.current());
        assertThatThrownBy(() -> catalog.create(tuner("Newer"), Tuner.class))
                .isInstanceOf(PluginConfigurationException.class)
                .hasMessageContaining("tuner 'Newer' cannot be used")
                .hasMessageContaining(jar.toString()).hasMessageContaining("SPI " + newer)
                .hasMessageContaining("SPI " + SpiVersion.current());
    }

    @Test
    void theManifestAttributeAlsoDeclaresTheVersion() {
        Path jar = PluginJars.tuner("major", "Major", "return new T();").service(TunerProvider.class, "major.P")
                .resource("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\n" + SpiVersion.MANIFEST_ATTRIBUTE + ": "
                        + (SpiVersion.MAJOR + 1) + ".0\n\n").withoutProcessors()
                .build(plugins().resolve("major.jar"));
        AlgorithmCatalog catalog = AlgorithmCatalog.discover(List.of(plugins()));
        assertThat(catalog.problems()).singleElement().asString().contains(jar.toString(), "SPI " + (SpiVersion.MAJOR + 1) + ".0");
    }

    @Test
    void aProviderLackingAMethodTheRunningSpiRequiresIsRefusedAtLoad() {
        // Compiled against a stand-in TunerProvider without create(): what a plugin built against
        // another SPI looks like to this one.
        Path jar = new PluginJars()
                .source("org.tunekit.sdk.spi.TunerProvider", "package org.tunekit.sdk.spi; public interface TunerProvider extends AlgorithmProvider {}")
                .source("old.P", "package old; public final class P implements org.tunekit.sdk.spi.TunerProvider { public String name() { return \"Old\"; } }")
                .service(TunerProvider.class, "old.P").withoutProcessors().build(plugins().resolve("old.jar"));
        AlgorithmCatalog catalog = AlgorithmCatalog.discover(List.of(plugins()));
        assertThat(catalog.problems()).singleElement().asString()
                .contains(jar.toString(), "old.P", "does not implement TunerProvider.create(ClassArguments)", "SPI " + SpiVersion.current(),
                        "an SPI version it does not record");
        assertThatThrownBy(() -> catalog.create(tuner("old"), Tuner.class)).hasMessageContaining("TunerProvider.create(ClassArguments)");
    }

    @Test
    void aTunerLackingAMethodIsRefusedWhenCreatedNotInTheMiddleOfTheExperiment() {
        Path jar = new PluginJars()
                .source("org.tunekit.sdk.Tuner", "package org.tunekit.sdk; public interface Tuner {"
                        + " void updateSearchSpace(org.tunekit.sdk.space.SearchSpace s); Parameters generateParameters(long id); }")
                .source("half.P", "package half; import org.tunekit.sdk.*; public final class P implements org.tunekit.sdk.spi.TunerProvider {"
                        + " public String name() { return \"Half\"; } public Tuner create(ClassArguments a) { return new T(); } }")
                .source("half.T", "package half; import org.tunekit.sdk.*; public final class T implements Tuner {"
                        + " public void updateSearchSpace(org.tunekit.sdk.space.SearchSpace s) {}"
                        + " public Parameters generateParameters(long id) { return null; } }")
                .service(TunerProvider.class, "half.P").withoutProcessors().build(plugins().resolve("half.jar"));
        AlgorithmCatalog catalog = AlgorithmCatalog.discover(List.of(plugins()));
        assertThat(catalog.problems()).isEmpty();
        assertThatThrownBy(() -> catalog.create(tuner("half"), Tuner.class))
                .isInstanceOf(PluginConfigurationException.class)
                .hasMessageContaining("half.T does not implement Tuner.receiveTrialResult(TrialResult)")
                .hasMessageContaining("SPI " + SpiVersion.current());
        assertThat(jar).exists();
    }

    @Test
    void aPluginCallingAnSdkMethodThatIsNotThereGetsAClearErrorAtCreation() {
        Path jar = new PluginJars()
                .source("org.tunekit.sdk.ClassArguments", "package org.tunekit.sdk; public final class ClassArguments {"
                        + " public long fromAFutureSdk() { return 0; } }")
                .source("future.P", "package future; import org.tunekit.sdk.*; public final class P implements org.tunekit.sdk.spi.TunerProvider {"
                        + " public String name() { return \"Future\"; }"
                        + " public Tuner create(ClassArguments a) { a.fromAFutureSdk(); return null; } }")
                .service(TunerProvider.class, "future.P").withoutProcessors().build(plugins().resolve("future.jar"));
        AlgorithmCatalog catalog = AlgorithmCatalog.discover(List.of(plugins()));
        assertThatThrownBy(() -> catalog.create(tuner("future"), Tuner.class))
                .isInstanceOf(PluginConfigurationException.class)
                .hasMessageContaining("future.P").hasMessageContaining(jar.toString())
                .hasMessageContaining("NoSuchMethodError").hasMessageContaining("fromAFutureSdk")
                .hasMessageContaining("SPI " + SpiVersion.current());
    }

    @Test
    void aProviderWithoutAServicesFileIsReportedWithTheFileAndLineToAdd() {
        Path jar = PluginJars.tuner("unlisted", "Unlisted", "return new T();").build(plugins().resolve("unlisted.jar"));
        AlgorithmCatalog catalog = AlgorithmCatalog.discover(List.of(plugins()));
        assertThat(catalog.problems()).singleElement().asString()
                .contains(jar.toString(), "unlisted.P", "META-INF/services/org.tunekit.sdk.spi.TunerProvider", "with the line unlisted.P");
        assertThatThrownBy(() -> catalog.create(tuner("Unlisted"), Tuner.class))
                .hasMessageContaining("unknown tuner 'Unlisted'").hasMessageContaining("with the line unlisted.P");
    }

    @Test
    void twoPluginsWithOneNameAreAnErrorNamingBothJars() {
        Path a = PluginJars.tuner("twina", "Twin", "return new T();").service(TunerProvider.class, "twina.P").build(plugins().resolve("a.jar"));
        Path b = PluginJars.tuner("twinb", "twin", "return new T();").service(TunerProvider.class, "twinb.P").build(plugins().resolve("b.jar"));
        AlgorithmCatalog catalog = AlgorithmCatalog.discover(List.of(plugins()));
        assertThat(catalog.problems()).singleElement().asString()
                .contains("tuner 'twin' is provided by", a.toString(), b.toString(), "a config naming it is refused");
        assertThatThrownBy(() -> catalog.create(tuner("TWIN"), Tuner.class))
                .isInstanceOf(PluginConfigurationException.class)
                .hasMessageContaining("ambiguous").hasMessageContaining(a.toString()).hasMessageContaining(b.toString())
                .hasMessageContaining("twina.P").hasMessageContaining("twinb.P").hasMessageContaining("remove all but one");
    }

    @Test
    void anExceptionInAPluginConstructorNamesTheProviderAndTheCause() {
        PluginJars.tuner("boom", "Boom", "return new T();")
                .source("boom.T", "package boom; import org.tunekit.sdk.*; import org.tunekit.sdk.space.SearchSpace;\n"
                        + "public final class T implements Tuner {\n"
                        + "  public T() { throw new IllegalStateException(\"cannot open model file\", new java.io.FileNotFoundException(\"/no/model.bin\")); }\n"
                        + "  public void updateSearchSpace(SearchSpace s) {}\n"
                        + "  public Parameters generateParameters(long id) { return null; }\n"
                        + "  public void receiveTrialResult(TrialResult r) {}\n"
                        + "}\n")
                .service(TunerProvider.class, "boom.P").build(plugins().resolve("boom.jar"));
        AlgorithmCatalog catalog = AlgorithmCatalog.discover(List.of(plugins()));
        assertThatThrownBy(() -> catalog.create(tuner("boom"), Tuner.class))
                .isInstanceOf(PluginConfigurationException.class)
                .hasMessageContaining("tuner 'boom' could not be created: its provider boom.P")
                .hasMessageContaining("cannot open model file").hasMessageContaining("FileNotFoundException: /no/model.bin");
    }

    @Test
    void aClassNamedInTheConfigIsCheckedToo() throws Exception {
        Path code = tmp.resolve("code");
        Path jar = PluginJars.tuner("byclass", "ByClass", "return new T();").build(code.resolve("byclass.jar"));
        try (var jf = new java.util.jar.JarFile(jar.toFile())) {
            assertThat(PluginJars.utf8(jf.getInputStream(jf.getEntry(SpiVersion.RECORD_RESOURCE)).readAllBytes()))
                    .contains("providers=byclass.P", "plugins=byclass.T");
        }
        AlgorithmCatalog catalog = AlgorithmCatalog.discover(List.of());
        AlgorithmSpec spec = new AlgorithmSpec(AlgorithmKind.TUNER, null, "byclass.T", code, ClassArguments.of(java.util.Map.of()));
        assertThat(catalog.create(spec, Tuner.class).getClass().getName()).isEqualTo("byclass.T");

        String newer = (SpiVersion.MAJOR + 1) + ".0";
        Path future = tmp.resolve("future");
        PluginJars.tuner("byclass2", "ByClass2", "return new T();").resource(SpiVersion.RECORD_RESOURCE, "spi-version=" + newer + "\n")
                .withoutProcessors().build(future.resolve("future.jar"));
        AlgorithmSpec futureSpec = new AlgorithmSpec(AlgorithmKind.TUNER, null, "byclass2.T", future, ClassArguments.of(java.util.Map.of()));
        assertThatThrownBy(() -> catalog.create(futureSpec, Tuner.class)).isInstanceOf(PluginConfigurationException.class)
                .hasMessageContaining("tuner class byclass2.T from " + future)
                .hasMessageContaining("SPI " + newer).hasMessageContaining("this Tunekit has SPI " + SpiVersion.current());
    }
}
