//! A CSV file's records as raw bytes, found without taking them apart: a reader that
//! wants a few rows of a file of millions (the viewer's sampled games in moves.csv) looks
//! at one field of each and parses only the rows it keeps. The csv crate's reader runs
//! every byte through its state machine; here a record's end is the next line end outside
//! double quotes, found with `memchr` (a quoted field's `""` toggles the quote state
//! twice, so the count of quotes decides).

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::os::unix::fs::FileExt;

/// The records of a CSV source, one at a time, as their bytes without the line end.
pub struct RawRecords<R> {
    source: R,
    buffer: Vec<u8>,
    /// The unread bytes are `buffer[start..end]`.
    start: usize,
    end: usize,
    done: bool,
    /// Where `buffer[end]` is in the source (counted from where reading began).
    read: u64,
}

/// Bytes read from the source at a time (a record longer than this grows the buffer).
const CHUNK: usize = 1 << 16;

impl<R: Read> RawRecords<R> {
    /// Records of `source`, from its start (the header, if any, is the first record).
    pub fn new(source: R) -> RawRecords<R> {
        RawRecords {
            source,
            buffer: vec![0; CHUNK],
            start: 0,
            end: 0,
            done: false,
            read: 0,
        }
    }

    /// Where the next record starts, counted from where reading began.
    pub fn position(&self) -> u64 {
        self.read - (self.end - self.start) as u64
    }

    /// The next record's bytes (a `\r` before its `\n` left out), or `None` at the end.
    /// A last record without a line end is a record; an empty file has none.
    ///
    /// # Errors
    /// The source cannot be read.
    pub fn next_record(&mut self) -> io::Result<Option<&[u8]>> {
        let mut at = self.start;
        let mut quoted = false;
        loop {
            match memchr::memchr2(b'\n', b'"', &self.buffer[at..self.end]) {
                Some(found) if self.buffer[at + found] == b'"' => {
                    quoted = !quoted;
                    at += found + 1;
                }
                Some(found) if quoted => at += found + 1,
                Some(found) => {
                    let record = self.start..at + found;
                    self.start = at + found + 1;
                    return Ok(Some(trim_cr(&self.buffer[record])));
                }
                None if self.done => {
                    if self.start == self.end {
                        return Ok(None);
                    }
                    let record = self.start..self.end;
                    self.start = self.end;
                    return Ok(Some(trim_cr(&self.buffer[record])));
                }
                None => {
                    // Keep the record begun, read more after it.
                    let kept = self.end - self.start;
                    self.buffer.copy_within(self.start..self.end, 0);
                    at -= self.start;
                    (self.start, self.end) = (0, kept);
                    if self.buffer.len() - self.end < CHUNK / 2 {
                        self.buffer.resize(self.buffer.len() + CHUNK, 0);
                    }
                    let read = loop {
                        match self.source.read(&mut self.buffer[self.end..]) {
                            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                            other => break other?,
                        }
                    };
                    self.end += read;
                    self.read += read as u64;
                    self.done = read == 0;
                }
            }
        }
    }
}

impl<'f> RawRecords<&'f File> {
    /// The records of `file` after its header, and the header's fields (none for an
    /// empty file).
    ///
    /// # Errors
    /// The file cannot be read.
    pub fn after_header(file: &'f File) -> io::Result<(RawRecords<&'f File>, csv::ByteRecord)> {
        let mut records = RawRecords::new(file);
        let header = records.next_record()?.map(parse_record).unwrap_or_default();
        Ok((records, header))
    }

    /// The records of `file` from byte `offset` (a record's start) on; their
    /// [`RawRecords::position`] counts from the file's start.
    ///
    /// # Errors
    /// The file cannot be read there.
    pub fn at(file: &'f File, offset: u64) -> io::Result<RawRecords<&'f File>> {
        let mut source = file;
        source.seek(SeekFrom::Start(offset))?;
        let mut records = RawRecords::new(source);
        records.read = offset;
        Ok(records)
    }
}

/// Bytes looked at around a probe of [`first_at_least`]: a record's key field must end
/// within them.
const PROBE: usize = 1 << 14;

/// Below this distance [`first_at_least`] stops halving and leaves the rest to a scan.
const CLOSE: u64 = 1 << 16;

/// In `file`, whose records from byte `from` (a record's start) on are in increasing
/// order of the number in field `column` (a run's moves.csv by game id): a record start
/// at or after `from`, at most a few dozen kilobytes before the first record whose number
/// is at least `target`, found by halving the distance with reads of a few kilobytes.
/// `from` itself when a probe finds no number where it looks (a quoted field, a line end
/// inside quotes, a longer record): a scan from there is always right.
///
/// # Errors
/// The file cannot be read.
pub fn first_at_least(file: &File, from: u64, column: usize, target: u64) -> io::Result<u64> {
    let (mut low, mut high) = (from, file.metadata()?.len());
    let mut block = vec![0; PROBE];
    while high - low > CLOSE {
        let middle = low + (high - low) / 2;
        // The first record starting at or after `middle`: after the line end before it.
        let read = file.read_at(&mut block, middle - 1)?;
        let Some(line_end) = memchr::memchr(b'\n', &block[..read]) else {
            return Ok(from);
        };
        let start = middle + line_end as u64;
        if start >= high {
            high = middle;
            continue;
        }
        let rest = &block[line_end + 1..read];
        // The field must end before the block does (or it may be cut).
        let whole = |field: &&[u8]| {
            field.as_ptr() as usize - rest.as_ptr() as usize + field.len() < rest.len()
        };
        let Some(number) = plain_field(rest, column)
            .filter(whole)
            .and_then(|field| std::str::from_utf8(field).ok()?.parse::<u64>().ok())
        else {
            return Ok(from);
        };
        if number < target {
            low = start;
        } else {
            high = start;
        }
    }
    Ok(low)
}

fn trim_cr(record: &[u8]) -> &[u8] {
    record.strip_suffix(b"\r").unwrap_or(record)
}

/// Field `column` of `record` when no field before it (nor it) is quoted: the cheap look
/// a scan takes at every row. `None` when a quote is in the way (parse the record whole)
/// or the record has fewer fields.
pub fn plain_field(record: &[u8], column: usize) -> Option<&[u8]> {
    plain_fields(record, [Some(column)]).map(|[field]| field)
}

/// Fields `columns` of `record` (a column not given is empty) when no field up to the
/// last of them is quoted: a scan's look at a few columns of every row without copying
/// them. `None` when a quote is in the way or the record has fewer fields.
pub fn plain_fields<const N: usize>(
    record: &[u8],
    columns: [Option<usize>; N],
) -> Option<[&[u8]; N]> {
    let mut fields = [&record[..0]; N];
    let Some(last) = columns.iter().flatten().copied().max() else {
        return Some(fields);
    };
    let mut start = 0;
    let ends = memchr::memchr_iter(b',', record).chain(std::iter::once(record.len()));
    for (column, end) in ends.enumerate() {
        for (field, _) in fields
            .iter_mut()
            .zip(&columns)
            .filter(|(_, at)| **at == Some(column))
        {
            *field = &record[start..end];
        }
        if column == last {
            return (!record[..end].contains(&b'"')).then_some(fields);
        }
        start = end + 1;
    }
    None
}

/// The fields of one record, as the csv crate reads a record arbiter wrote (a quoted
/// field's `""` is one `"`; bytes after a closing quote are kept, as the crate keeps
/// them), into `fields` (cleared first): no parser built per record.
pub fn parse_into(record: &[u8], fields: &mut csv::ByteRecord) {
    parse_first(record, usize::MAX, fields);
}

/// The first `count` fields of one record (see [`parse_into`]), into `fields`: a reader
/// that looks at a few columns of every row does not split its long ones.
pub fn parse_first(record: &[u8], count: usize, fields: &mut csv::ByteRecord) {
    fields.clear();
    let mut rest = record;
    let mut quoted = Vec::new();
    loop {
        let end = if rest.first() == Some(&b'"') {
            quoted.clear();
            let (mut at, mut closed) = (1, false);
            while let Some(quote) = memchr::memchr(b'"', &rest[at..]) {
                quoted.extend_from_slice(&rest[at..at + quote]);
                at += quote + 1;
                if rest.get(at) != Some(&b'"') {
                    closed = true;
                    break;
                }
                quoted.push(b'"');
                at += 1;
            }
            if !closed {
                // An unclosed quote runs to the end.
                quoted.extend_from_slice(&rest[at..]);
                at = rest.len();
            }
            let end = memchr::memchr(b',', &rest[at..]).map_or(rest.len(), |comma| at + comma);
            quoted.extend_from_slice(&rest[at..end]);
            fields.push_field(&quoted);
            end
        } else {
            let end = memchr::memchr(b',', rest).unwrap_or(rest.len());
            fields.push_field(&rest[..end]);
            end
        };
        if end >= rest.len() || fields.len() >= count {
            return;
        }
        rest = &rest[end + 1..];
    }
}

/// The fields of one record (see [`parse_into`]).
pub fn parse_record(record: &[u8]) -> csv::ByteRecord {
    let mut fields = csv::ByteRecord::new();
    parse_into(record, &mut fields);
    fields
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every record of `text`, through a reader that hands over `step` bytes at a time
    /// (records cut at every place a buffer can end).
    fn records(text: &[u8], step: usize) -> Vec<Vec<u8>> {
        struct Trickle<'a>(&'a [u8], usize);
        impl Read for Trickle<'_> {
            fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
                let n = self.1.min(out.len()).min(self.0.len());
                out[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let mut scan = RawRecords::new(Trickle(text, step));
        let mut all = Vec::new();
        while let Some(record) = scan.next_record().expect("read") {
            all.push(record.to_vec());
        }
        all
    }

    #[test]
    fn records_split_at_line_ends_outside_quotes_as_the_csv_crate_splits_them() {
        let text = b"id,move,note\n1,a1-a2,plain\r\n2,\"x,y\",\"two\nlines\"\n3,\"say \"\"hi\"\"\n\",\n\n4,last,no end";
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .from_reader(&text[..]);
        let expected: Vec<csv::ByteRecord> =
            reader.byte_records().map(|r| r.expect("csv")).collect();
        for step in [1, 3, 7, 4096] {
            let found = records(text, step);
            // The csv crate skips the empty line; the scan hands it over empty.
            let parsed: Vec<csv::ByteRecord> = found
                .iter()
                .filter(|r| !r.is_empty())
                .map(|r| parse_record(r))
                .collect();
            assert_eq!(parsed, expected, "step {step}");
            assert_eq!(found.len(), 6, "step {step}");
        }
        assert!(records(b"", 5).is_empty());
    }

    #[test]
    fn fields_are_the_csv_crate_fields() {
        for record in [
            &b"a,b,c"[..],
            b"",
            b",",
            b"\"\"",
            b"\"x,y\",z",
            b"\"say \"\"hi\"\"\",,\"\"\"\"\"",
            b"1,\"two\nlines\",3",
            b"\"closed\"after,next",
            b"\"unclosed, runs on",
            b"connect-four(rows=4,columns=4),\"connect-four(rows=4,columns=4)\",7",
        ] {
            let mut reader = csv::ReaderBuilder::new()
                .has_headers(false)
                .from_reader(record);
            let mut expected = csv::ByteRecord::new();
            let read = reader.read_byte_record(&mut expected).expect("csv");
            if !read {
                // The crate reads no record from an empty line; the scan skips those.
                assert!(record.is_empty());
                continue;
            }
            assert_eq!(
                parse_record(record),
                expected,
                "{}",
                String::from_utf8_lossy(record)
            );
        }
    }

    #[test]
    fn a_record_longer_than_the_buffer_is_whole() {
        let long = "m".repeat(3 * CHUNK);
        let text = format!("1,{long}\n2,b\n");
        let found = records(text.as_bytes(), CHUNK);
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].len(), 2 + long.len());
        assert_eq!(found[1], b"2,b");
    }

    #[test]
    fn a_plain_field_is_found_only_where_no_quote_is_before_it() {
        assert_eq!(plain_field(b"12,a,b", 0), Some(&b"12"[..]));
        assert_eq!(plain_field(b"12,a,b", 2), Some(&b"b"[..]));
        assert_eq!(plain_field(b"12,a,b", 3), None);
        assert_eq!(plain_field(b"\"1,2\",a", 1), None);
        assert_eq!(plain_field(b"1,a,\"q,r\"", 1), Some(&b"a"[..]));
    }

    #[test]
    fn plain_fields_are_taken_in_the_order_asked_and_refused_past_a_quote_or_the_end() {
        let row = b"7,0,x,breakthrough,,62,\"a,b\"";
        assert_eq!(
            plain_fields(row, [Some(3), Some(5), None, Some(0), Some(4)]),
            Some([&b"breakthrough"[..], b"62", b"", b"7", b""])
        );
        assert_eq!(plain_fields(row, [Some(6)]), None);
        assert_eq!(plain_fields(row, [Some(1), Some(9)]), None);
        assert_eq!(plain_fields(row, [None, None]), Some([&b""[..], b""]));
        assert_eq!(plain_fields(b"\"q\",1", [Some(1)]), None);
    }
}
