package org.tunekit.sdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ClassArgumentsTest {

    @Test
    void typedAccessorsReadValuesAndFallBack() {
        ClassArguments a = ClassArguments.of(Map.of("s", "x", "d", 0.5, "i", 3, "b", true, "bs", "FALSE", "ns", " 12 ", "ds", "2.5"));
        assertThat(a.getString("s", "y")).isEqualTo("x");
        assertThat(a.getString("missing", "y")).isEqualTo("y");
        assertThat(a.getDouble("d", 0)).isEqualTo(0.5);
        assertThat(a.getDouble("i", 0)).isEqualTo(3.0);
        assertThat(a.getDouble("ds", 0)).isEqualTo(2.5);
        assertThat(a.getLong("i", 0)).isEqualTo(3);
        assertThat(a.getLong("ns", 0)).isEqualTo(12);
        assertThat(a.getLong("missing", 9)).isEqualTo(9);
        assertThat(a.getOptionalLong("missing")).isEmpty();
        assertThat(a.getInt("i", 0, 1)).isEqualTo(3);
        assertThat(a.getBoolean("b", false)).isTrue();
        assertThat(a.getBoolean("bs", true)).isFalse();
        assertThat(a.has("s")).isTrue();
        assertThat(a.has("missing")).isFalse();
        assertThat(ClassArguments.of(null).asMap()).isEmpty();
        assertThat(ClassArguments.empty().getDouble("x", 1.5)).isEqualTo(1.5);
    }

    @Test
    void wrongTypesNameTheArgument() {
        ClassArguments a = ClassArguments.of(Map.of("seed", "abc", "mode", 3, "flag", "yes", "n", 2.5, "nested", 1));
        assertThatThrownBy(() -> a.getLong("seed", 0)).isInstanceOf(InvalidClassArgumentException.class)
                .hasMessage("class argument 'seed' must be an integer, got \"abc\"");
        assertThatThrownBy(() -> a.getString("mode", null)).isInstanceOf(InvalidClassArgumentException.class)
                .hasMessage("class argument 'mode' must be a string, got 3");
        assertThatThrownBy(() -> a.getBoolean("flag", false)).isInstanceOf(InvalidClassArgumentException.class)
                .hasMessage("class argument 'flag' must be true or false, got \"yes\"");
        assertThatThrownBy(() -> a.getLong("n", 0)).hasMessage("class argument 'n' must be an integer, got 2.5");
        assertThatThrownBy(() -> a.getDouble("seed", 0)).hasMessage("class argument 'seed' must be a number, got \"abc\"");
        assertThatThrownBy(() -> a.getNested("nested")).hasMessage("class argument 'nested' must be an object, got 1");
    }

    @Test
    void rangesAndChoicesNameTheArgument() {
        ClassArguments a = ClassArguments.of(Map.of("gamma", 1.5, "population", 0, "optimize_mode", "Maximize", "algo", "fast"));
        assertThatThrownBy(() -> a.getDouble("gamma", 0.25, 0, 1)).isInstanceOf(InvalidClassArgumentException.class)
                .hasMessage("class argument 'gamma' must be in [0.0, 1.0], got 1.5");
        assertThatThrownBy(() -> a.getInt("population", 10, 1)).isInstanceOf(InvalidClassArgumentException.class)
                .hasMessage("class argument 'population' must be an integer >= 1, got 0");
        assertThat(a.getChoice("optimize_mode", "minimize", "maximize", "minimize")).isEqualTo("maximize");
        assertThatThrownBy(() -> a.getChoice("algo", "tpe", "tpe", "random")).isInstanceOf(InvalidClassArgumentException.class)
                .hasMessage("class argument 'algo' must be one of [tpe, random], got \"fast\"");
        assertThat(OptimizeMode.from(a, OptimizeMode.MINIMIZE)).isEqualTo(OptimizeMode.MAXIMIZE);
        assertThatThrownBy(() -> OptimizeMode.from(ClassArguments.of(Map.of("optimize_mode", "up")), OptimizeMode.MINIMIZE))
                .hasMessageContaining("'optimize_mode'").hasMessageContaining("\"up\"");
    }

    @Test
    void requireOnlyNamesUnknownArguments() {
        ClassArguments a = ClassArguments.of(Map.of("seed", 1));
        assertThat(a.requireOnly("seed", "optimize_mode")).isSameAs(a);
        assertThatThrownBy(() -> ClassArguments.of(Map.of("sede", 1)).requireOnly("seed", "optimize_mode"))
                .isInstanceOf(InvalidClassArgumentException.class)
                .hasMessage("unknown class argument 'sede' (did you mean 'seed'?); known: [optimize_mode, seed]");
        Map<String, Object> two = new java.util.LinkedHashMap<>();
        two.put("a", 1);
        two.put("b", 2);
        assertThatThrownBy(() -> ClassArguments.of(two).requireOnly("seed"))
                .hasMessageStartingWith("unknown class arguments 'a', 'b'");
    }

    @Test
    void aMisspeltArgumentGetsTheClosestKnownName() {
        String[] known = {"optimize_mode", "seed", "constant_liar_type", "n_startup_jobs"};
        assertThatThrownBy(() -> ClassArguments.of(Map.of("optimise_mode", "maximize")).requireOnly(known))
                .hasMessageStartingWith("unknown class argument 'optimise_mode' (did you mean 'optimize_mode'?)");
        assertThatThrownBy(() -> ClassArguments.of(Map.of("optimizeMode", "maximize")).requireOnly(known))
                .hasMessageContaining("(did you mean 'optimize_mode'?)");
        assertThatThrownBy(() -> ClassArguments.of(Map.of("n_startup_job", 3)).requireOnly(known))
                .hasMessageContaining("(did you mean 'n_startup_jobs'?)");
        assertThatThrownBy(() -> ClassArguments.of(Map.of("temperature", 3)).requireOnly(known))
                .hasMessage("unknown class argument 'temperature'; known: [constant_liar_type, n_startup_jobs, optimize_mode, seed]");
        assertThatThrownBy(() -> ClassArguments.of(Map.of("tpe_args", Map.of("gamam", 1))).getNested("tpe_args").requireOnly("gamma"))
                .hasMessageContaining("'tpe_args.gamam' (did you mean 'tpe_args.gamma'?)");
    }

    @Test
    void nestedArgumentsCarryTheirPrefixIntoErrors() {
        ClassArguments a = ClassArguments.of(Map.of("tpe_args", Map.of("gamma", "high", "typo", 1)));
        ClassArguments nested = a.getNested("tpe_args");
        assertThatThrownBy(() -> nested.getDouble("gamma", 0.25)).hasMessage("class argument 'tpe_args.gamma' must be a number, got \"high\"");
        assertThatThrownBy(() -> nested.requireOnly("gamma")).hasMessageContaining("unknown class argument 'tpe_args.typo'");
        assertThat(a.getNested("absent").asMap()).isEmpty();
        assertThatThrownBy(() -> a.getNested("absent").getInt("n", 0, 1)).hasMessageContaining("'absent.n'");
    }

    @Test
    void argumentsAreAnImmutableCopy() {
        Map<String, Object> m = new HashMap<>();
        m.put("list", new java.util.ArrayList<>(List.of(1)));
        ClassArguments a = ClassArguments.of(m);
        m.put("x", 1);
        assertThat(a.has("x")).isFalse();
        assertThat(a.get("list")).isEqualTo(List.of(1L));
        assertThatThrownBy(() -> a.asMap().put("y", 1)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> ((List<Object>) a.get("list")).add(2)).isInstanceOf(UnsupportedOperationException.class);
    }
}
