//! journal.jsonl: every finished job as one JSON line, appended as jobs finish, so an
//! interrupted run of any kind can be resumed with every statistic intact (the CSV files
//! are then rewritten whole, in plan order). Removed when the run completes.
//!
//! A crash (SIGKILL, power loss, a full disk) can leave the last line torn. Reading the
//! journal finds where its last whole line ends, and [`Journal::open`] cuts the file there
//! before appending, so a torn record never ends up in the middle of the file, however many
//! times a run is killed and resumed. Resuming streams the journal: only where each stretch of
//! evenly stepping ids starts is held in memory ([`JournalIndex`]: a few dozen bytes for a
//! million records), and records are read back one at a time in plan order.
//!
//! Each record carries a checksum of its own text (a last field, `"check"`: CRC-32, as
//! eight hex digits, over the line as it would read without that field), as meta.json
//! carries one of the plan: a record edited by hand (a winner flipped) is refused on
//! resume, naming its line, instead of being trusted. CRC-32 through `crc32fast` runs at
//! memory speed: a byte-at-a-time hash cost a third of the journal's time on records
//! with their moves.

use super::{JobRecord, Reporter, RunOutcome};
use crate::registry::InputError;
use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The journal's file name.
pub const JOURNAL: &str = "journal.jsonl";

/// Appends finished jobs to the journal.
pub struct Journal<R> {
    writer: BufWriter<File>,
    /// The record being written (reused).
    line: Vec<u8>,
    last_flush: Instant,
    records: PhantomData<fn(&R)>,
}

impl<R> Journal<R> {
    /// Opens (or creates) the journal of `folder` for appending, first cutting it to its
    /// first `keep` bytes (the whole lines [`JournalIndex::open`] read; a torn tail goes).
    ///
    /// # Errors
    /// The file cannot be opened or cut.
    pub fn open(folder: &Path, keep: u64) -> io::Result<Journal<R>> {
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(Journal::<R>::path(folder))?;
        if file.metadata()?.len() > keep {
            file.set_len(keep)?;
            file.sync_data()?;
        }
        Ok(Journal {
            writer: BufWriter::new(file),
            line: Vec::with_capacity(1024),
            last_flush: Instant::now(),
            records: PhantomData,
        })
    }

    /// The journal's path in `folder`.
    pub fn path(folder: &Path) -> PathBuf {
        folder.join(JOURNAL)
    }
}

impl<R: JobRecord> Reporter<R> for Journal<R> {
    fn finished(&mut self, record: &R) -> io::Result<()> {
        self.line.clear();
        record.write_json(&mut self.line)?;
        seal(&mut self.line);
        self.line.push(b'\n');
        self.writer.write_all(&self.line)?;
        if self.last_flush.elapsed() >= Duration::from_millis(200) {
            self.writer.flush()?;
            self.last_flush = Instant::now();
        }
        Ok(())
    }

    /// Already in the journal.
    fn replayed(&mut self, _record: &R) -> io::Result<()> {
        Ok(())
    }

    fn ended(&mut self, _outcome: &RunOutcome) -> io::Result<()> {
        self.writer.flush()
    }
}

/// How many whole records `folder`'s journal holds (0 when there is none), counted
/// without reading them: what a stopped run has finished.
pub fn records_in(folder: &Path) -> u64 {
    let Ok(file) = File::open(folder.join(JOURNAL)) else {
        return 0;
    };
    let mut reader = BufReader::with_capacity(1 << 16, file);
    let mut count = 0;
    loop {
        let Ok(buffer) = reader.fill_buf() else {
            return count;
        };
        if buffer.is_empty() {
            return count;
        }
        count += buffer.iter().filter(|&&b| b == b'\n').count() as u64;
        let used = buffer.len();
        reader.consume(used);
    }
}

/// The field a record's checksum is written in, last: `,"check":"<8 hex digits>"}`.
const CHECK: &[u8] = b",\"check\":\"";
const CHECK_LEN: usize = CHECK.len() + 8 + 2;

/// Appends the checksum field to a record's JSON object (anything else is left as it is).
fn seal(json: &mut Vec<u8>) {
    if json.last() != Some(&b'}') {
        return;
    }
    let sum = crc32fast::hash(json);
    json.pop();
    json.extend_from_slice(CHECK);
    // Eight lowercase hex digits, most significant first (as `{:08x}`, without its
    // allocation on every record).
    const HEX: &[u8; 16] = b"0123456789abcdef";
    json.extend(
        (0..8)
            .rev()
            .map(|digit| HEX[(sum >> (4 * digit)) as usize & 0xf]),
    );
    json.extend_from_slice(b"\"}");
}

/// Whether a whole line's checksum matches its text (a line without one, from a journal
/// written before records carried one, passes).
fn seal_holds(line: &[u8]) -> bool {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    let Some(at) = line.len().checked_sub(CHECK_LEN) else {
        return true;
    };
    if !line[at..].starts_with(CHECK) || !line.ends_with(b"\"}") {
        return true;
    }
    let hex = &line[at + CHECK.len()..line.len() - 2];
    let Some(sum) = std::str::from_utf8(hex)
        .ok()
        .and_then(|h| u32::from_str_radix(h, 16).ok())
    else {
        return false;
    };
    let mut hasher = crc32fast::Hasher::new();
    hasher.update(&line[..at]);
    hasher.update(b"}");
    hasher.finalize() == sum
}

/// Consecutive lines of a journal whose ids step evenly: `first`, `first + step`, ...
/// A run writes its records in plan order, so one invocation's records are a handful of
/// these (one per gap left by the jobs in flight when an earlier invocation stopped),
/// whatever the number of records. The step is the journal's first: 1, or a shard's
/// number of shards when each of its units is one job.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Stretch {
    first: u64,
    step: u64,
    count: u64,
    /// Byte offset of the first record's line.
    offset: u64,
}

impl Stretch {
    fn last(&self) -> u64 {
        self.first + self.step * (self.count - 1)
    }
}

/// A journal open for reading records back.
struct Cursor {
    reader: BufReader<File>,
    /// The offset the reader stands at.
    position: u64,
    /// When it stands at the start of a stretch's record, which one (stretch, record).
    standing: Option<(usize, u64)>,
}

/// The jobs a journal holds and where their records stand, as [`Stretch`]es sorted by id,
/// so that its memory does not grow with the number of records; and a reader that brings
/// records back one at a time.
pub struct JournalIndex<R> {
    /// Sorted by first id, their ids disjoint.
    stretches: Vec<Stretch>,
    /// Records indexed.
    records: usize,
    /// Bytes of whole lines; anything after is a torn record.
    whole: u64,
    /// Bytes after the whole lines.
    torn: u64,
    path: PathBuf,
    /// The open journal, once a record was read.
    reader: Mutex<Option<Cursor>>,
    kind: PhantomData<fn() -> R>,
}

impl<R: JobRecord> JournalIndex<R> {
    /// Reads `folder`'s journal (none: an empty index). Every whole line must be a record;
    /// a last line without its newline (or unreadable) was torn by a crash and is left
    /// out. When an id occurs twice, its first record counts.
    ///
    /// # Errors
    /// A message naming the file and line.
    pub fn open(folder: &Path) -> Result<JournalIndex<R>, InputError> {
        let path = Journal::<R>::path(folder);
        let mut index = JournalIndex {
            stretches: Vec::new(),
            records: 0,
            whole: 0,
            torn: 0,
            path: path.clone(),
            reader: Mutex::new(None),
            kind: PhantomData,
        };
        match File::open(&path) {
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(index),
            Err(e) => {
                return Err(InputError::in_file(
                    &path,
                    None,
                    format!("cannot read: {e}"),
                ));
            }
        }
        let mut stretches = index.scan(true)?;
        stretches.sort_by_key(|s| s.first);
        if stretches.windows(2).any(|w| w[0].last() >= w[1].first) {
            // Interleaved or repeated ids (journals joined by hand): one stretch a record,
            // the first written of an id kept (the sort is stable).
            stretches = index.scan(false)?;
            stretches.sort_by_key(|s| s.first);
            stretches.dedup_by_key(|s| s.first);
        }
        index.records = stretches.iter().map(|s| s.count as usize).sum();
        index.stretches = stretches;
        Ok(index)
    }

    /// Reads the journal through, checking every record, into stretches (`join`: as long
    /// as they go; else one a record), in the order written; sets `whole` and `torn`.
    fn scan(&mut self, join: bool) -> Result<Vec<Stretch>, InputError> {
        let path = &self.path;
        let file = File::open(path)
            .map_err(|e| InputError::in_file(path, None, format!("cannot read: {e}")))?;
        let mut reader = BufReader::with_capacity(1 << 16, file);
        let mut line = Vec::new();
        let (mut offset, mut number) = (0u64, 0usize);
        let mut stretches: Vec<Stretch> = Vec::new();
        // Where the last stretch's next line would start.
        let mut stretch_end = u64::MAX;
        // The step of every stretch: the first seen between neighbouring lines.
        let mut common: Option<u64> = None;
        self.torn = 0;
        loop {
            line.clear();
            let read = reader
                .read_until(b'\n', &mut line)
                .map_err(|e| InputError::in_file(path, None, e.to_string()))?;
            if read == 0 {
                break;
            }
            number += 1;
            let complete = line.last() == Some(&b'\n');
            let parsed = serde_json::from_slice::<R>(&line);
            match parsed {
                Ok(_) if complete && !seal_holds(&line) => {
                    return Err(InputError::in_file(
                        path,
                        Some(number),
                        "edited since it was written (its checksum does not match): restore it, or delete the line to play that job again".to_string(),
                    ));
                }
                Ok(record) if complete => {
                    let id = record.id();
                    let step = stretches
                        .last()
                        .filter(|_| join && stretch_end == offset)
                        .and_then(|last| id.checked_sub(last.last()))
                        .filter(|&gap| gap > 0 && *common.get_or_insert(gap) == gap);
                    match (stretches.last_mut(), step) {
                        (Some(last), Some(step)) => {
                            last.step = step;
                            last.count += 1;
                        }
                        (_, None) | (None, _) => stretches.push(Stretch {
                            first: id,
                            step: 1,
                            count: 1,
                            offset,
                        }),
                    }
                    stretch_end = offset + read as u64;
                }
                Err(_) if line.iter().all(u8::is_ascii_whitespace) && complete => {}
                Err(e) if complete => {
                    return Err(InputError::in_file(
                        path,
                        Some(number),
                        format!("not a finished job of this run: {e}"),
                    ));
                }
                // Torn by a crash: no newline yet.
                _ => {
                    self.torn = read as u64;
                    break;
                }
            }
            offset += read as u64;
        }
        self.whole = offset;
        Ok(stretches)
    }
}

impl<R> JournalIndex<R> {
    /// Jobs recorded.
    pub fn len(&self) -> usize {
        self.records
    }

    /// Whether no job is recorded.
    pub fn is_empty(&self) -> bool {
        self.records == 0
    }

    /// Bytes of whole lines: where appending must start.
    pub fn whole_bytes(&self) -> u64 {
        self.whole
    }

    /// Bytes of a torn last record (0: none).
    pub fn torn_bytes(&self) -> u64 {
        self.torn
    }

    /// The stretch holding `id` and the record's place in it; else the index of the first
    /// stretch after `id`.
    fn find(&self, id: u64) -> Result<(usize, u64), usize> {
        let after = self.stretches.partition_point(|s| s.first <= id);
        let Some(at) = after.checked_sub(1) else {
            return Err(after);
        };
        let stretch = &self.stretches[at];
        let apart = id - stretch.first;
        if id <= stretch.last() && apart.is_multiple_of(stretch.step) {
            Ok((at, apart / stretch.step))
        } else {
            Err(after)
        }
    }

    /// Whether job `id` is recorded.
    pub fn contains(&self, id: u64) -> bool {
        self.find(id).is_ok()
    }

    /// The smallest recorded id at or after `id`.
    pub fn next_from(&self, id: u64) -> Option<u64> {
        let after = self.stretches.partition_point(|s| s.first <= id);
        if let Some(stretch) = after.checked_sub(1).map(|at| &self.stretches[at])
            && id <= stretch.last()
        {
            let steps = (id - stretch.first).div_ceil(stretch.step);
            return Some(stretch.first + steps * stretch.step);
        }
        self.stretches.get(after).map(|s| s.first)
    }

    /// The recorded ids, increasing (after [`JournalIndex::open`], stretches never
    /// overlap).
    pub fn ids(&self) -> impl Iterator<Item = u64> + '_ {
        self.stretches
            .iter()
            .flat_map(|s| (0..s.count).map(move |k| s.first + k * s.step))
    }

    /// How many stretches the index holds (its memory).
    pub fn stretches(&self) -> usize {
        self.stretches.len()
    }
}

impl<R: JobRecord> JournalIndex<R> {
    /// Rewrites `folder`'s journal without the records of `ids` (sorted), whose jobs are
    /// then played again, and reads it anew.
    ///
    /// # Errors
    /// The journal cannot be read or written.
    pub fn without(self, folder: &Path, ids: &[u64]) -> Result<JournalIndex<R>, InputError> {
        let path = self.path.clone();
        let failed = |e: io::Error| InputError::in_file(&path, None, e.to_string());
        let fresh = folder.join(format!("{JOURNAL}.new"));
        let mut reader = BufReader::new(File::open(&path).map_err(failed)?).take(self.whole);
        let mut writer = BufWriter::new(File::create(&fresh).map_err(failed)?);
        let mut line = Vec::new();
        loop {
            line.clear();
            if reader.read_until(b'\n', &mut line).map_err(failed)? == 0 {
                break;
            }
            let dropped = serde_json::from_slice::<R>(&line)
                .is_ok_and(|record| ids.binary_search(&record.id()).is_ok());
            if !dropped {
                writer.write_all(&line).map_err(failed)?;
            }
        }
        writer.flush().map_err(failed)?;
        drop(writer);
        drop(self);
        std::fs::rename(&fresh, &path).map_err(failed)?;
        JournalIndex::open(folder)
    }

    /// The record of job `id` (recorded), read back from the file. Reading in increasing
    /// id order reads the file nearly sequentially.
    ///
    /// # Errors
    /// The file cannot be read or changed since it was indexed.
    pub fn record(&self, id: u64) -> io::Result<R> {
        let broken = |what: String| io::Error::other(InputError::in_file(&self.path, None, what));
        let (at, nth) = self
            .find(id)
            .map_err(|_| broken(format!("job {id} is not recorded")))?;
        let mut guard = self.reader.lock().unwrap_or_else(|e| e.into_inner());
        if guard.is_none() {
            *guard = Some(Cursor {
                reader: BufReader::with_capacity(1 << 16, File::open(&self.path)?),
                position: 0,
                standing: None,
            });
        }
        let Some(Cursor {
            reader,
            position,
            standing,
        }) = guard.as_mut()
        else {
            return Err(broken("cannot be opened".to_string()));
        };
        let mut line = Vec::new();
        // Unless the reader stands at this stretch's record or before it, back to the
        // stretch's first line; then on to the record.
        let mut from = match *standing {
            Some((stretch, next)) if stretch == at && next <= nth => next,
            _ => {
                let offset = self.stretches[at].offset;
                reader.seek_relative(offset as i64 - *position as i64)?;
                *position = offset;
                0
            }
        };
        loop {
            line.clear();
            let read = reader.read_until(b'\n', &mut line)?;
            *position += read as u64;
            if read == 0 {
                *standing = None;
                return Err(broken(format!("changed while resuming (job {id})")));
            }
            if from == nth {
                break;
            }
            from += 1;
        }
        *standing = Some((at, nth + 1));
        serde_json::from_slice(&line)
            .map_err(|e| broken(format!("changed while resuming (job {id}): {e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
    struct Job {
        id: u64,
        text: String,
    }

    impl JobRecord for Job {
        fn id(&self) -> u64 {
            self.id
        }
    }

    fn job(id: u64) -> Job {
        Job {
            id,
            text: format!("job {id} {}", "x".repeat(id as usize % 7)),
        }
    }

    fn write(folder: &Path, ids: &[u64]) {
        let mut journal = Journal::<Job>::open(folder, u64::MAX).expect("open");
        for &id in ids {
            journal.finished(&job(id)).expect("write");
        }
        journal
            .ended(&RunOutcome {
                played: 0,
                skipped: 0,
                total: 0,
                cancelled: true,
            })
            .expect("flush");
    }

    #[test]
    fn records_come_back_in_id_order_from_offsets() {
        let dir = tempfile::tempdir().expect("dir");
        write(dir.path(), &[0, 2, 1, 5, 3]);
        let index = JournalIndex::<Job>::open(dir.path()).expect("index");
        assert_eq!(index.len(), 5);
        assert!(index.contains(5) && !index.contains(4));
        assert_eq!((index.next_from(4), index.next_from(6)), (Some(5), None));
        for id in [0, 1, 2, 3, 5, 0] {
            assert_eq!(index.record(id).expect("record"), job(id));
        }
        assert!(index.record(4).is_err());
    }

    #[test]
    fn a_resumed_or_sharded_journal_is_indexed_in_a_few_stretches() {
        let dir = tempfile::tempdir().expect("dir");
        // A first invocation stopped with jobs 4 and 7 in flight (the jobs after them were
        // finished and kept), a second played those two and the rest.
        let first: Vec<u64> = (0..10).filter(|id| ![4, 7].contains(id)).collect();
        write(dir.path(), &first);
        write(dir.path(), &[4, 7]);
        write(dir.path(), &(10..5_000).collect::<Vec<u64>>());
        let index = JournalIndex::<Job>::open(dir.path()).expect("index");
        assert_eq!(index.len(), 5_000);
        assert!(index.stretches() <= 6, "{} stretches", index.stretches());
        for id in (0..5_000).chain([3, 0, 4999, 4, 8, 7]) {
            assert_eq!(index.record(id).expect("record"), job(id), "job {id}");
        }
        assert_eq!(
            (index.next_from(4), index.next_from(5_000)),
            (Some(4), None)
        );
        // Shard 1 of 3: every third job, stopped once with job 10 in flight.
        let dir = tempfile::tempdir().expect("dir");
        write(dir.path(), &[1, 4, 7, 13, 16]);
        write(dir.path(), &[10, 19, 22, 25]);
        let index = JournalIndex::<Job>::open(dir.path()).expect("index");
        assert_eq!((index.len(), index.stretches()), (9, 4));
        for id in 0..30 {
            assert_eq!(index.contains(id), id % 3 == 1 && id < 26, "job {id}");
            let next = (id..26).find(|i| i % 3 == 1);
            assert_eq!(index.next_from(id), next, "after {id}");
        }
        for id in [25, 1, 4, 10, 13, 7, 22] {
            assert_eq!(index.record(id).expect("record"), job(id), "job {id}");
        }
    }

    #[test]
    fn a_torn_last_line_is_cut_before_appending_again() {
        let dir = tempfile::tempdir().expect("dir");
        write(dir.path(), &[0, 1]);
        let path = Journal::<Job>::path(dir.path());
        let whole = std::fs::metadata(&path).expect("meta").len();
        // A crash in the middle of writing job 2: half a line, no newline.
        let torn = serde_json::to_string(&job(2)).expect("json");
        let mut file = OpenOptions::new().append(true).open(&path).expect("open");
        file.write_all(&torn.as_bytes()[..torn.len() / 2])
            .expect("tear");
        drop(file);
        for round in 0..3 {
            let index = JournalIndex::<Job>::open(dir.path()).expect("index");
            assert_eq!(index.len(), 2 + round);
            assert_eq!(index.whole_bytes() + index.torn_bytes(), {
                std::fs::metadata(&path).expect("meta").len()
            });
            let mut journal = Journal::<Job>::open(dir.path(), index.whole_bytes()).expect("open");
            journal.finished(&job(2 + round as u64)).expect("write");
            drop(journal);
            // And torn again, every time.
            let mut file = OpenOptions::new().append(true).open(&path).expect("open");
            file.write_all(b"{\"id\":9").expect("tear");
        }
        let index = JournalIndex::<Job>::open(dir.path()).expect("index");
        assert_eq!(index.len(), 5);
        assert_eq!(index.torn_bytes(), 7);
        for id in 0..5 {
            assert_eq!(index.record(id).expect("record"), job(id));
        }
        assert!(whole > 0);
    }

    #[test]
    fn a_bad_whole_line_is_an_error_naming_it_and_duplicates_keep_the_first() {
        let dir = tempfile::tempdir().expect("dir");
        write(dir.path(), &[0, 1]);
        let path = Journal::<Job>::path(dir.path());
        let mut file = OpenOptions::new().append(true).open(&path).expect("open");
        file.write_all(b"{\"id\":1,\"text\":\"again\"}\n\n")
            .expect("append");
        drop(file);
        let index = JournalIndex::<Job>::open(dir.path()).expect("index");
        assert_eq!(index.len(), 2);
        assert_eq!(index.record(1).expect("record"), job(1));
        let mut file = OpenOptions::new().append(true).open(&path).expect("open");
        file.write_all(b"{\"id\":7\n{\"id\":8,\"text\":\"\"}\n")
            .expect("append");
        drop(file);
        let error = JournalIndex::<Job>::open(dir.path())
            .err()
            .expect("refused");
        assert!(
            error
                .to_string()
                .contains("journal.jsonl: line 5: not a finished job of this run"),
            "{error}"
        );
    }

    #[test]
    fn the_checksum_is_eight_lowercase_hex_digits_of_the_crc() {
        let mut padded = false;
        for id in 0..200 {
            let object = format!("{{\"id\":{id}}}");
            let sum = crc32fast::hash(object.as_bytes());
            padded |= sum < 1 << 28;
            let mut line = object.clone().into_bytes();
            seal(&mut line);
            assert_eq!(
                String::from_utf8(line.clone()).expect("text"),
                format!("{{\"id\":{id},\"check\":\"{sum:08x}\"}}")
            );
            assert!(seal_holds(&line));
        }
        // A sum with a leading zero digit was among them, and kept its zero.
        assert!(padded);
    }

    #[test]
    fn a_record_edited_by_hand_is_refused_naming_its_line() {
        let dir = tempfile::tempdir().expect("dir");
        write(dir.path(), &[0, 1, 2]);
        let path = Journal::<Job>::path(dir.path());
        let text = std::fs::read_to_string(&path).expect("read");
        assert!(text.lines().all(|l| l.contains("\"check\":\"")), "{text}");
        // Every record reads back whole, the checksum field ignored.
        let index = JournalIndex::<Job>::open(dir.path()).expect("index");
        assert_eq!(index.record(2).expect("record"), job(2));
        // One character changed in the second record.
        let edited = text.replacen("job 1", "job 7", 1);
        assert_ne!(edited, text);
        std::fs::write(&path, &edited).expect("write");
        let error = JournalIndex::<Job>::open(dir.path())
            .err()
            .expect("refused");
        assert!(
            error
                .to_string()
                .contains("journal.jsonl: line 2: edited since it was written"),
            "{error}"
        );
        // Deleting the line plays that job again: the rest still reads.
        let kept: String = edited
            .lines()
            .filter(|l| !l.contains("job 7"))
            .map(|l| format!("{l}\n"))
            .collect();
        std::fs::write(&path, kept).expect("write");
        let index = JournalIndex::<Job>::open(dir.path()).expect("index");
        assert!(index.contains(0) && !index.contains(1) && index.contains(2));
        // A line from before checksums (none) is read as it is.
        std::fs::write(&path, "{\"id\":4,\"text\":\"old\"}\n").expect("write");
        assert!(
            JournalIndex::<Job>::open(dir.path())
                .expect("index")
                .contains(4)
        );
    }

    #[test]
    fn no_journal_is_an_empty_index() {
        let dir = tempfile::tempdir().expect("dir");
        let index = JournalIndex::<Job>::open(dir.path()).expect("index");
        assert!(index.is_empty());
        assert_eq!((index.whole_bytes(), index.torn_bytes()), (0, 0));
    }
}
