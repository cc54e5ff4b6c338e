package org.tunekit.it;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** Queries of an experiment's database ({@code experiment.db}) that the end-to-end tests ask in one line. */
final class Sql {
    private Sql() {}

    /** The first column of the first row, as a number (a {@code count(*)}). */
    static long count(Connection c, String sql) throws Exception {
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
            r.next();
            return r.getLong(1);
        }
    }

    /** The first column of every row, as numbers. */
    static List<Long> longs(Connection c, String sql) throws Exception {
        List<Long> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
            while (r.next()) {
                out.add(r.getLong(1));
            }
        }
        return out;
    }

    /** The first column of every row, as text. */
    static List<String> strings(Connection c, String sql) throws Exception {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
            while (r.next()) {
                out.add(r.getString(1));
            }
        }
        return out;
    }
}
