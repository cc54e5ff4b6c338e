package org.tunekit.examples.study

import org.tribuo.MutableDataset
import org.tribuo.classification.Label
import org.tribuo.classification.LabelFactory
import org.tribuo.datasource.ListDataSource
import org.tribuo.impl.ArrayExample
import org.tribuo.provenance.SimpleDataSourceProvenance

/** The wine recognition data: 178 wines of three cultivars, 13 measurements of their chemistry each. */
object Wine {
    private const val RESOURCE = "wine_data.csv"

    /** The columns, as scikit-learn names them. */
    val FEATURES = listOf(
        "alcohol", "malic_acid", "ash", "alcalinity_of_ash", "magnesium", "total_phenols", "flavanoids",
        "nonflavanoid_phenols", "proanthocyanins", "color_intensity", "hue", "od280/od315_of_diluted_wines", "proline",
    )

    /**
     * Reads `wine_data.csv` beside this class into a Tribuo data set: its first line gives the number of rows and
     * columns and the class names, each other line 13 measurements and the class's index.
     */
    fun load(): MutableDataset<Label> {
        val text = Wine::class.java.getResourceAsStream(RESOURCE)?.bufferedReader()?.use { it.readLines() }
            ?: error("$RESOURCE is not on the class path beside ${Wine::class.java.name}")
        val header = text.first().split(",")
        val rows = header[0].toInt()
        val classes = header.drop(2)
        require(header[1].toInt() == FEATURES.size && text.size > rows) {
            "$RESOURCE: expected $rows rows of ${FEATURES.size} features after its header, got ${text.size - 1} lines and ${header[1]} columns"
        }
        val names = FEATURES.toTypedArray()
        val examples = text.drop(1).take(rows).mapIndexed { i, line ->
            val cells = line.split(",")
            require(cells.size == FEATURES.size + 1) { "$RESOURCE, row ${i + 1}: expected ${FEATURES.size + 1} cells, got ${cells.size}" }
            val label = Label(classes[cells.last().toInt()])
            ArrayExample(label, names, cells.dropLast(1).map { it.toDouble() }.toDoubleArray())
        }
        val factory = LabelFactory()
        val provenance = SimpleDataSourceProvenance("UCI wine recognition data ($RESOURCE)", factory)
        return MutableDataset(ListDataSource(examples, factory, provenance))
    }
}
