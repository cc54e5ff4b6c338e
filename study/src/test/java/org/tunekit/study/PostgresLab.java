package org.tunekit.study;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import org.junit.jupiter.api.Assumptions;
import org.tunekit.sdk.space.SearchSpace;

/**
 * The PostgreSQL server of the tests: {@code POSTGRES_LAB} is its JDBC URL ({@code bash study/postgres-lab.sh up}
 * starts one and prints it; CI's {@code .ci/run} does both), {@code POSTGRES_LAB_USER} and {@code POSTGRES_LAB_PASSWORD}
 * its user (both {@code tunekit} by default, as the lab makes it). Without it the tests skip and say so.
 */
final class PostgresLab {
    static final String URL = System.getenv("POSTGRES_LAB");
    static final String USER = env("POSTGRES_LAB_USER", "tunekit");
    static final String PASSWORD = env("POSTGRES_LAB_PASSWORD", "tunekit");
    static final SearchSpace SPACE = SearchSpace.builder().uniform("x", -5, 5).uniform("y", -5, 5).build();

    private PostgresLab() {}

    static void assume() {
        Assumptions.assumeTrue(URL != null && !URL.isBlank(),
                "no PostgreSQL lab: run 'bash study/postgres-lab.sh up' and set POSTGRES_LAB to the JDBC URL it prints (CI's .ci/run does both)");
    }

    static Storage storage() {
        return Storage.postgres(URL, USER, PASSWORD);
    }

    /** A study name no earlier run has used. */
    static String uniqueName(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** The definition every process of a test opens its study with. */
    static StudyBuilder study(String name) {
        return Study.named(name).space(SPACE).tuner("TPE").minimize().storage(storage()).loadIfExists();
    }

    static Connection connect() throws SQLException {
        return DriverManager.getConnection(URL, USER, PASSWORD);
    }

    /** Removes a study and its rows (the tables' foreign keys cascade). */
    static void drop(String name) {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.executeUpdate("DELETE FROM tunekit_studies WHERE name = '" + name.replace("'", "''") + "'");
        } catch (SQLException e) {
            // the tables may not exist when a test failed before creating them
        }
    }

    static double sphere(Trial t) {
        return t.getDouble("x") * t.getDouble("x") + t.getDouble("y") * t.getDouble("y");
    }

    private static String env(String name, String otherwise) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? otherwise : v;
    }
}
