package org.tunekit.sdk.internal;

import java.io.IOException;
import java.io.Writer;
import java.util.Set;
import java.util.TreeSet;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.TypeMirror;
import javax.tools.Diagnostic;
import javax.tools.StandardLocation;
import org.tunekit.sdk.spi.SpiVersion;

/**
 * Records, in the classes of a plugin being compiled, the SPI version of the SDK it is compiled
 * against. {@code javac} finds this processor on the compile class path (the SDK jar lists it in
 * {@code META-INF/services/javax.annotation.processing.Processor}) and runs it without any
 * configuration; it claims no annotation and changes no class. When the compiled sources include a
 * concrete class implementing a provider interface, or {@code Tuner}, {@code Assessor} or
 * {@code Advisor} (a plugin named by class in a config), it writes
 * {@link SpiVersion#RECORD_RESOURCE} with the SPI version and those classes. Not part of the SPI.
 */
public final class SpiVersionRecorder extends AbstractProcessor {
    private static final String[] PROVIDER_TYPES = {
        "org.tunekit.sdk.spi.TunerProvider", "org.tunekit.sdk.spi.AssessorProvider", "org.tunekit.sdk.spi.AdvisorProvider"};
    private static final String[] PLUGIN_TYPES = {"org.tunekit.sdk.Tuner", "org.tunekit.sdk.Assessor", "org.tunekit.sdk.Advisor"};

    private final Set<String> providers = new TreeSet<>();
    private final Set<String> plugins = new TreeSet<>();
    private boolean written;

    /** Created by {@code javac}. */
    public SpiVersionRecorder() {}

    @Override
    public Set<String> getSupportedAnnotationTypes() {
        return Set.of("*");
    }

    @Override
    public SourceVersion getSupportedSourceVersion() {
        return SourceVersion.latestSupported();
    }

    @Override
    public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
        for (Element e : round.getRootElements()) {
            collect(e);
        }
        if (round.processingOver() && (!providers.isEmpty() || !plugins.isEmpty()) && !written) {
            written = true;
            write();
        }
        return false;
    }

    private void collect(Element e) {
        if (e.getKind() != ElementKind.CLASS) {
            return;
        }
        TypeElement type = (TypeElement) e;
        if (!type.getModifiers().contains(Modifier.ABSTRACT)) {
            String name = processingEnv.getElementUtils().getBinaryName(type).toString();
            if (implementsAny(type.asType(), PROVIDER_TYPES)) {
                providers.add(name);
            } else if (implementsAny(type.asType(), PLUGIN_TYPES)) {
                plugins.add(name);
            }
        }
        for (Element inner : type.getEnclosedElements()) {
            collect(inner);
        }
    }

    private boolean implementsAny(TypeMirror t, String[] types) {
        for (String name : types) {
            TypeElement spi = processingEnv.getElementUtils().getTypeElement(name);
            if (spi != null && processingEnv.getTypeUtils().isAssignable(t, processingEnv.getTypeUtils().erasure(spi.asType()))) {
                return true;
            }
        }
        return false;
    }

    private void write() {
        try (Writer w = processingEnv.getFiler().createResource(StandardLocation.CLASS_OUTPUT, "", SpiVersion.RECORD_RESOURCE).openWriter()) {
            w.write("# Written by the Tunekit SDK while compiling this plugin: the SPI version it was compiled against.\n");
            w.write(SpiVersion.RECORD_KEY + "=" + SpiVersion.CURRENT_TEXT + "\n");
            w.write("providers=" + String.join(",", providers) + "\n");
            w.write("plugins=" + String.join(",", plugins) + "\n");
        } catch (IOException | RuntimeException ex) {
            processingEnv.getMessager().printMessage(Diagnostic.Kind.NOTE,
                    "Tunekit SDK: could not record the SPI version in " + SpiVersion.RECORD_RESOURCE + ": " + ex);
        }
    }
}
