//! The command line's TSV dialect (`cli::tsv`): any bytes read without a panic, each record at a line
//! of its own; and what `record` writes reads back as the fields it was given, whatever they hold.

use crate::cli::tsv;

/// The input is read as a file; then, taken as text, it is split into records at `\0` and into
/// fields at `\x01`, which are written and read back.
pub fn check(data: &[u8]) {
    let mut last = 0;
    for record in tsv::reader(data).into_byte_records() {
        let Ok(record) = record else { break };
        let line = record.position().map_or(0, |p| p.line());
        assert!(line >= last.max(1), "a record at line {line} after one at line {last}");
        last = line;
    }

    let text = String::from_utf8_lossy(data);
    let written: Vec<Vec<&str>> = text.split('\0').map(|record| record.split('\x01').collect()).collect();
    let file: String = written.iter().map(|fields| tsv::record(fields)).collect();
    let read: Vec<Vec<String>> = tsv::reader(file.as_bytes())
        .into_records()
        .map(|record| record.expect("a written record reads").iter().map(str::to_owned).collect())
        .collect();
    assert_eq!(read, written, "written as {file:?}");
}
