package dev.ferry.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Loads test vectors from the class path: {@code /vectors/<path>}. */
public final class Vectors {
  private Vectors() {}

  /** Returns the bytes of {@code vectors/<path>}. */
  public static byte[] bytes(String path) {
    try (InputStream in = Vectors.class.getClassLoader().getResourceAsStream("vectors/" + path)) {
      if (in == null) {
        throw new IllegalArgumentException("no test vector on the class path: vectors/" + path);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Returns the lines of a text vector, without comment lines starting with '#'. */
  public static List<String> lines(String path) {
    List<String> out = new ArrayList<>();
    for (String line : new String(bytes(path), StandardCharsets.UTF_8).split("\n", -1)) {
      if (!line.startsWith("#") && !line.isEmpty()) {
        out.add(line);
      }
    }
    return out;
  }

  /** Reads a tab-separated manifest with a header line into rows keyed by column name. */
  public static List<Map<String, String>> tsv(String path) {
    List<String> lines = lines(path);
    String[] header = lines.get(0).split("\t", -1);
    List<Map<String, String>> rows = new ArrayList<>();
    for (String line : lines.subList(1, lines.size())) {
      String[] cells = line.split("\t", -1);
      Map<String, String> row = new LinkedHashMap<>();
      for (int i = 0; i < header.length && i < cells.length; i++) {
        row.put(header[i], cells[i]);
      }
      rows.add(row);
    }
    return rows;
  }
}
