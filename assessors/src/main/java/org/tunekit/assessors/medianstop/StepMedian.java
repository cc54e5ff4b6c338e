package org.tunekit.assessors.medianstop;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.PriorityQueue;

/**
 * A multiset of numbers that only grows, answering its lower and upper median in constant time;
 * an insertion costs O(log n). The lower half sits in a max-heap, the upper half in a min-heap, the
 * lower half holding the extra element when the count is odd.
 */
final class StepMedian {
    private final PriorityQueue<Double> lower = new PriorityQueue<>(Collections.reverseOrder());
    private final PriorityQueue<Double> upper = new PriorityQueue<>();

    void add(double x) {
        if (lower.isEmpty() || x <= lower.peek()) {
            lower.add(x);
        } else {
            upper.add(x);
        }
        if (lower.size() > upper.size() + 1) {
            upper.add(lower.poll());
        } else if (upper.size() > lower.size()) {
            lower.add(upper.poll());
        }
    }

    int size() {
        return lower.size() + upper.size();
    }

    /** The element at index {@code (n - 1) / 2} of the sorted values. */
    double lowerMedian() {
        return lower.peek();
    }

    /** The element at index {@code n / 2} of the sorted values. */
    double upperMedian() {
        return size() % 2 == 1 ? lower.peek() : upper.peek();
    }

    /** Every value, in no particular order (for checkpoints). */
    List<Double> values() {
        List<Double> out = new ArrayList<>(size());
        out.addAll(lower);
        out.addAll(upper);
        return out;
    }
}
