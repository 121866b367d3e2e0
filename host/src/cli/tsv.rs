//! The TSV dialect of the command line, shared by what it writes (`--batch_output FILE.tsv`) and what
//! it reads (`--evaluate_file`): tab-delimited records, a field quoted as Python's `csv` module quotes
//! it (`"…"` when it holds a tab, a quote or a line break, with `""` for a quote), so a text survives
//! the round trip whatever it holds.

use std::io::Read;

/// A reader of records in this dialect; records may have any number of fields, so that the caller
/// can say which line has the wrong number.
pub fn reader<R: Read>(input: R) -> csv::Reader<R> {
    csv::ReaderBuilder::new().delimiter(b'\t').has_headers(false).flexible(true).from_reader(input)
}

/// One record in this dialect, with its line end.
pub fn record(fields: &[&str]) -> String {
    let mut writer = csv::WriterBuilder::new()
        .delimiter(b'\t')
        .quote_style(csv::QuoteStyle::Necessary)
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    // Writing to memory cannot fail, and the fields are UTF-8, so the record is too.
    let _ = writer.write_record(fields);
    String::from_utf8(writer.into_inner().unwrap_or_default()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_fields_stay_plain_and_others_are_quoted_as_python_does() {
        assert_eq!(record(&["The cat sat.", "A cat sat."]), "The cat sat.\tA cat sat.\n");
        // What Python's csv.writer(f, delimiter="\t", lineterminator="\n") writes for the same fields.
        assert_eq!(
            record(&["a\tb", "say \"hi\"", "one\ntwo"]),
            "\"a\tb\"\t\"say \"\"hi\"\"\"\t\"one\ntwo\"\n"
        );
    }

    #[test]
    fn every_text_reads_back_unchanged() {
        let texts = [
            ("tab\there", "quote \" here"),
            ("line\nbreak", "carriage\r\nreturn"),
            ("\"starts with a quote", "ends with a tab\t"),
            ("plain", "  spaces kept  "),
        ];
        let file: String = texts.iter().map(|(a, b)| record(&[a, b])).collect();
        let read: Vec<(String, String)> = reader(file.as_bytes())
            .into_records()
            .map(|r| {
                let r = r.unwrap();
                (r[0].to_owned(), r[1].to_owned())
            })
            .collect();
        let expected: Vec<(String, String)> =
            texts.iter().map(|(a, b)| ((*a).to_owned(), (*b).to_owned())).collect();
        assert_eq!(read, expected);
    }
}
