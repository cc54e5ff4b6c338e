package org.tunekit.bench.quality;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;

class SvgPlotTest {

    @Test
    void theLogAxisCoversWholeDecadesOfThePositiveValues() {
        SvgPlot.Panel p = new SvgPlot.Panel("p", List.of(new SvgPlot.Line("a", "#000", new double[] {30, 0.5, 0, -1e-17}, null, null)),
                List.of(new SvgPlot.Point("n", "#000", "circle", 25, 2e-4)));
        assertThat(SvgPlot.logRange(List.of(p))).containsExactly(1e-4, 100);
        SvgPlot.Panel flat = new SvgPlot.Panel("p", List.of(new SvgPlot.Line("a", "#000", new double[] {1, 1}, null, null)), List.of());
        assertThat(SvgPlot.logRange(List.of(flat))).containsExactly(1, 10);
        SvgPlot.Panel none = new SvgPlot.Panel("p", List.of(new SvgPlot.Line("a", "#000", new double[] {0}, null, null)), List.of());
        assertThat(SvgPlot.logRange(List.of(none))).containsExactly(0.1, 10);
    }

    @Test
    void xTicksAreRoundNumbers() {
        assertThat(SvgPlot.xStep(100)).isEqualTo(25);
        assertThat(SvgPlot.xStep(20)).isEqualTo(5);
        assertThat(SvgPlot.xStep(7)).isEqualTo(1);
    }

    @Test
    void rendersWellFormedSvgWithEveryShapeAndEscapedLabels() throws Exception {
        List<SvgPlot.Point> points = SvgPlot.SHAPES.stream().map(s -> new SvgPlot.Point("<" + s + ">", "#123456", s, 10, 0.5)).toList();
        SvgPlot.Panel p = new SvgPlot.Panel("a & b", List.of(new SvgPlot.Line("x<y", "#000", new double[] {3, 2, 1},
                new double[] {2, 1, 0.5}, new double[] {4, 3, 2})), points);
        String svg = SvgPlot.render("t \"q\"", "trials", "regret", 3, List.of(2), List.of(p, p),
                List.of(new SvgPlot.LegendEntry("head", null, null), new SvgPlot.LegendEntry("x<y", "#000", null),
                        new SvgPlot.LegendEntry("star", "#000", "star")));
        var doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
        assertThat(doc.getElementsByTagName("polyline").getLength()).isEqualTo(2);
        assertThat(svg).contains("a &amp; b").contains("x&lt;y").contains("t &quot;q&quot;").doesNotContain("<star>");
        assertThat(doc.getElementsByTagName("title").getLength()).isEqualTo(2 * (1 + SvgPlot.SHAPES.size()));
    }

    @Test
    void theScatterAxisSpansOneTwoFiveValuesAroundTheData() {
        List<SvgPlot.Line> lines = List.of(new SvgPlot.Line("a", "#000", new double[] {0.0121, 0.072, 0}, null, null));
        assertThat(SvgPlot.niceLogRange(lines)).containsExactly(0.01, 0.1);
        List<SvgPlot.Line> narrow = List.of(new SvgPlot.Line("a", "#000", new double[] {0.025, 0.04}, null, null));
        assertThat(SvgPlot.niceLogRange(narrow)).containsExactly(0.02, 0.05);
    }

    @Test
    void rendersAWellFormedScatterWithWhiskersGuidesAndEscapedLabels() throws Exception {
        List<SvgPlot.ErrorPoint> points = List.of(new SvgPlot.ErrorPoint("a<b", "#123456", "square", 30, 25, 35, 0.02, 0.015, 0.03),
                new SvgPlot.ErrorPoint("none", "#654321", "circle", 100, 100, 100, 0.016, 0.01, 0.025));
        String svg = SvgPlot.renderScatter("t & u", "epochs %", "regret", points,
                List.of(new SvgPlot.Guide(true, 60, "60%"), new SvgPlot.Guide(false, 0.016, "base")),
                List.of(new SvgPlot.LegendEntry("a<b", "#123456", "square")));
        var doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
        assertThat(doc.getElementsByTagName("circle").getLength()).isEqualTo(1);
        assertThat(svg).contains("a&lt;b", "t &amp; u", "stroke-dasharray");
    }
}
