package ${package};

import org.tunekit.sdk.Assessor;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.spi.AssessorProvider;

/** Makes {@link BestCurveAssessor} known to tunekit as {@code BestCurve} (listed in META-INF/services). */
public final class BestCurveAssessorProvider implements AssessorProvider {
    @Override
    public String name() {
        return "BestCurve";
    }

    @Override
    public String description() {
        return "stops trials that fall behind the best completed curve";
    }

    @Override
    public Assessor create(ClassArguments arguments) {
        return new BestCurveAssessor(arguments);
    }
}
