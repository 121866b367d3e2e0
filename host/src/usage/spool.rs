//! The usage spool: a server appends each settled call's record to a local file before the call's
//! answer goes out, so that the answer need not wait for the ledger's commit and a record not yet
//! committed survives the process being killed. What a dead process left is replayed into the store
//! by any live one that shares the directory: the next one started there, or a replica beside it
//! (their ids make a repeat count once).
//!
//! The directory holds segments named `<instance>-<n>.spool2`, each a header line naming the store
//! and then one record per line, a JSON array of its fields (version 2; version 1 wrote objects, in
//! segments named `.spool`), up
//! to the first NUL byte (a segment's blocks are reserved when it is made, and hold zeros past the
//! last record). A process holds an exclusive lock on each of its
//! segments for as long as they may hold uncommitted records, which tells a starting process which
//! segments are a dead one's (to replay) and which a live one's (to leave alone).

use crate::store::usage::UsageCall;
use memmap2::MmapMut;
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// A segment's size: once the next record does not fit, it is closed and a new one opened, so that
/// committed records are deleted while the server runs. A record larger than this gets a segment of
/// its own size.
const SEGMENT_BYTES: usize = 1 << 20;

/// The version of the records' lines that this build writes: 2, each a JSON array of the fields in
/// [`Fields`]' order. Version 1 wrote JSON objects, which cost twice the bytes and the escaping of
/// twelve names per record; both are read.
const VERSION: u32 = 2;

/// Version 2 segments' extension. Version 1's were `.spool`, which a version 1 reader takes for
/// its own: a replica of an older Parlance sharing the directory (during an upgrade) would read a
/// version 2 segment as lines that do not parse, then delete it. Under a new extension it leaves
/// them alone.
const EXTENSION: &str = "spool2";

/// A record's fields in a version 2 line, in [`UsageCall`]'s order.
type Fields = (
    String,
    i64,
    Option<String>,
    String,
    String,
    Option<String>,
    String,
    Option<u32>,
    Option<u32>,
    Option<i64>,
    Option<String>,
    Option<String>,
);

/// The first line of a segment.
#[derive(serde::Serialize, serde::Deserialize)]
struct Header {
    parlance_usage_spool: u32,
    /// The store the records belong in ([`crate::store::DialogStore::location`]).
    store: String,
}

pub struct Spool {
    dir: PathBuf,
    instance: String,
    header: Vec<u8>,
    /// The store the records belong in.
    store: String,
    /// `durability = "full"`: each append is synced to the disk before the answer goes out.
    sync: bool,
    segments: Mutex<Segments>,
    /// Some record is only here (it was not queued for the ledger): no segment is deleted from now
    /// on, and the next start replays them all (ids make the committed ones count once).
    kept: std::sync::atomic::AtomicBool,
}

struct Segments {
    current: Segment,
    number: u64,
    /// The number the next segment made takes: numbers only grow, so that a record's segment tells
    /// which records were appended before it.
    next: u64,
    /// A segment made ahead by [`Spool::prepare`], off the requests' path, with a number above
    /// `number`: the next one appended to.
    spare: Option<(u64, Segment)>,
    /// Whether segments are made ahead. Not after making one ahead failed (a full disk, say), until a
    /// segment made when needed succeeds: on a nearly full disk the spool must not take, a segment
    /// ahead, the room that the dialog store needs to recover.
    ahead: bool,
    /// Closed segments, kept locked (by their open file) until every record in them is committed.
    closed: Vec<(u64, PathBuf, File)>,
}

/// A segment being appended to: its file (which holds the lock), mapped.
struct Segment {
    file: File,
    map: MmapMut,
    /// Bytes written.
    len: usize,
}

/// The records of dead processes' segments, locked until [`Orphans::done`] deletes them.
pub struct Orphans {
    pub calls: Vec<UsageCall>,
    files: Vec<(PathBuf, File)>,
}

impl Orphans {
    /// Deletes the replayed segments (call once their records are committed).
    pub fn done(self) {
        for (path, _lock) in self.files {
            if let Err(e) = std::fs::remove_file(&path) {
                tracing::warn!(path = %path.display(), "cannot delete a replayed usage spool: {e}");
            }
        }
    }
}

impl Spool {
    /// Opens a new segment in `dir` (created when missing) for the records of `store`.
    pub fn open(dir: &Path, store: &str, sync: bool) -> io::Result<Spool> {
        std::fs::create_dir_all(dir)?;
        let mut header =
            serde_json::to_vec(&Header { parlance_usage_spool: VERSION, store: store.to_owned() })?;
        header.push(b'\n');
        let instance = instance_id();
        let current = new_segment(dir, &instance, 0, &header, SEGMENT_BYTES, sync)?;
        let segments = Mutex::new(Segments {
            current,
            number: 0,
            next: 1,
            spare: None,
            ahead: true,
            closed: Vec::new(),
        });
        let store = store.to_owned();
        let kept = Default::default();
        Ok(Spool { dir: dir.to_owned(), instance, header, store, sync, segments, kept })
    }

    /// Takes the segments that dead processes left in the directory for the same store.
    pub fn orphans(&self) -> io::Result<Orphans> {
        take_orphans(&self.dir, &self.store)
    }

    /// A record as a spool line.
    pub fn line(call: &UsageCall) -> Vec<u8> {
        let fields = (
            &call.id,
            call.at,
            &call.key_id,
            &call.client,
            &call.plugin,
            &call.model,
            &call.surface,
            call.input_tokens,
            call.output_tokens,
            call.cost,
            &call.failure,
            &call.trace_id,
        );
        let mut line = Vec::with_capacity(256);
        serde_json::to_writer(&mut line, &fields).expect("a usage record serializes");
        line.push(b'\n');
        line
    }

    /// Whether the next segment is made ahead ([`Spool::prepare`]).
    pub fn has_spare(&self) -> bool {
        self.segments.lock().unwrap_or_else(|e| e.into_inner()).spare.is_some()
    }

    /// Makes the next segment ahead, unless one is ready: its blocks reserved and its pages mapped
    /// writable, which costs the request whose record opens it nothing. Called by the ledger's writer
    /// after each batch, from a blocking thread.
    pub fn prepare(&self) {
        let number = {
            let mut segments = self.segments.lock().unwrap_or_else(|e| e.into_inner());
            if segments.spare.is_some() || !segments.ahead {
                return;
            }
            segments.next += 1;
            segments.next - 1
        };
        let made = new_segment(&self.dir, &self.instance, number, &self.header, SEGMENT_BYTES, self.sync);
        let mut segments = self.segments.lock().unwrap_or_else(|e| e.into_inner());
        match made {
            // A request that filled the current segment meanwhile made one of a higher number: this
            // one would put later records below it.
            Ok(_) if number < segments.number => {
                let _ = std::fs::remove_file(segment_path(&self.dir, &self.instance, number));
            }
            Ok(segment) => segments.spare = Some((number, segment)),
            Err(e) => {
                segments.ahead = false;
                tracing::warn!(
                    "cannot make the usage spool's next segment ahead: {e}; segments are made when needed until one is"
                );
            }
        }
    }

    /// Appends a [`Spool::line`], then runs `enqueue` with the number of its segment while no other
    /// append can come between (so that the queue's order is the spool's).
    pub fn append<T>(&self, line: &[u8], enqueue: impl FnOnce(u64) -> T) -> io::Result<T> {
        let mut segments = self.segments.lock().unwrap_or_else(|e| e.into_inner());
        if segments.current.len + line.len() > segments.current.map.len() {
            let size = SEGMENT_BYTES.max(self.header.len() + line.len());
            let (number, next) = match segments.spare.take() {
                Some((number, spare)) if spare.map.len() >= size => (number, spare),
                spare => {
                    // Too small for this record: deleted, since a segment made after this one must
                    // not take a lower number.
                    if let Some((number, _)) = spare {
                        let _ = std::fs::remove_file(segment_path(&self.dir, &self.instance, number));
                    }
                    let number = segments.next;
                    let next = new_segment(&self.dir, &self.instance, number, &self.header, size, self.sync)?;
                    segments.next += 1;
                    segments.ahead = true;
                    (number, next)
                }
            };
            let old = std::mem::replace(&mut segments.current, next);
            let closed = segments.number;
            segments.closed.push((closed, segment_path(&self.dir, &self.instance, closed), old.file));
            segments.number = number;
        }
        // A copy into the file's pages, shared with the kernel: in its hands once the copy is done,
        // whatever becomes of this process, with no system call per record.
        let current = &mut segments.current;
        let at = current.len;
        current.map[at..at + line.len()].copy_from_slice(line);
        if self.sync {
            current.map.flush_range(at, line.len())?;
        }
        current.len += line.len();
        Ok(enqueue(segments.number))
    }

    /// A record appended is not going to be committed by this process: keeps every segment for the
    /// next start to replay.
    pub fn keep(&self) {
        self.kept.store(true, std::sync::atomic::Ordering::Relaxed);
    }

    fn kept(&self) -> bool {
        self.kept.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Every record appended to segments before `number` is committed: deletes those segments
    /// (unless the spool is [kept](Spool::keep)).
    pub fn committed_before(&self, number: u64) {
        if self.kept() {
            return;
        }
        let mut segments = self.segments.lock().unwrap_or_else(|e| e.into_inner());
        segments.closed.retain(|(n, path, _)| {
            if *n >= number {
                return true;
            }
            if let Err(e) = std::fs::remove_file(path) {
                tracing::warn!(path = %path.display(), "cannot delete a committed usage spool: {e}");
            }
            false
        });
    }

    /// Every record appended so far is committed (the server is stopping): deletes every segment,
    /// unless the spool is [kept](Spool::keep); false then.
    pub fn close(&self) -> bool {
        if self.kept() {
            return false;
        }
        let mut segments = self.segments.lock().unwrap_or_else(|e| e.into_inner());
        let current = segments.number;
        segments.closed.retain(|(_, path, _)| std::fs::remove_file(path).is_err());
        let _ = std::fs::remove_file(segment_path(&self.dir, &self.instance, current));
        if let Some((spare, _)) = segments.spare.take() {
            let _ = std::fs::remove_file(segment_path(&self.dir, &self.instance, spare));
        }
        true
    }
}

fn segment_path(dir: &Path, instance: &str, number: u64) -> PathBuf {
    dir.join(format!("{instance}-{number}.{EXTENSION}"))
}

/// Makes a segment of `size` bytes, locked before it is visible as one: made under a temporary name
/// (which no other process takes for a segment), locked, its blocks reserved and its header written,
/// then renamed.
fn new_segment(
    dir: &Path,
    instance: &str,
    number: u64,
    header: &[u8],
    size: usize,
    sync: bool,
) -> io::Result<Segment> {
    let path = segment_path(dir, instance, number);
    let unready = path.with_extension("spool-new");
    // A leftover of this name is this process's own (its name is unique to it), from a rename that
    // failed.
    let _ = std::fs::remove_file(&unready);
    let mut file = OpenOptions::new().read(true).write(true).create_new(true).open(&unready)?;
    file.try_lock().map_err(|e| match e {
        TryLockError::Error(e) => e,
        TryLockError::WouldBlock => io::Error::other("a new usage spool is locked by another process"),
    })?;
    reserve(&mut file, size as u64)?;
    if sync {
        file.sync_all()?;
    }
    let mut map = map(&file)?;
    // Every page made writable (and dirty) in one call, rather than by a fault on the first record
    // copied into it: in a virtual machine that cost 3 to 5 us of system time per call. Where the
    // kernel has no MADV_POPULATE_WRITE (before Linux 5.14), the pages are faulted in as before.
    let _ = map.advise(memmap2::Advice::PopulateWrite);
    map[..header.len()].copy_from_slice(header);
    std::fs::rename(&unready, &path)?;
    Ok(Segment { file, map, len: header.len() })
}

/// Gives `file` `size` bytes of zeros whose blocks are on the disk already, so that a full disk is an
/// error here rather than a SIGBUS when a record is copied into a page that has none.
fn reserve(file: &mut File, size: u64) -> io::Result<()> {
    use rustix::fs::{FallocateFlags, fallocate};
    match fallocate(&*file, FallocateFlags::empty(), 0, size) {
        Ok(()) => Ok(()),
        // A file system without fallocate: zeros, written.
        Err(rustix::io::Errno::OPNOTSUPP | rustix::io::Errno::NOSYS) => {
            let zeros = vec![0u8; 64 << 10];
            let mut left = size;
            while left > 0 {
                let n = left.min(zeros.len() as u64) as usize;
                file.write_all(&zeros[..n])?;
                left -= n as u64;
            }
            Ok(())
        }
        Err(e) => Err(e.into()),
    }
}

#[expect(
    unsafe_code,
    reason = "a mapped file is undefined behaviour if another process truncates it or writes to it; \
              segments are this process's own, locked from before they are visible until they are \
              deleted, and other processes read only the segments whose lock they hold"
)]
fn map(file: &File) -> io::Result<MmapMut> {
    // SAFETY: see the reason above; the file's size is fixed when it is made and never changed.
    unsafe { MmapMut::map_mut(file) }
}

/// Locks and reads every segment in `dir` that no live process holds and that belongs to `store`. A
/// line that does not parse (the last one, cut by a crash mid-write) is skipped and logged.
fn take_orphans(dir: &Path, store: &str) -> io::Result<Orphans> {
    let mut orphans = Orphans { calls: Vec::new(), files: Vec::new() };
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if !path.extension().is_some_and(|e| e == EXTENSION || e == "spool") {
            continue;
        }
        let file = File::open(&path)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => continue,
            Err(TryLockError::Error(e)) => return Err(e),
        }
        let mut bytes = Vec::new();
        (&file).read_to_end(&mut bytes)?;
        // The records end at the first NUL byte: past it are the segment's reserved zeros (a JSON
        // line has none of its own).
        let written = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
        let mut lines = bytes[..written].split(|&b| b == b'\n');
        let header = lines.next().and_then(|l| serde_json::from_slice::<Header>(l).ok());
        let version = match header {
            Some(h) if h.parlance_usage_spool > VERSION => {
                tracing::warn!(path = %path.display(), version = h.parlance_usage_spool, "a usage spool written by a newer Parlance is left alone");
                continue;
            }
            Some(h) if h.store == store => h.parlance_usage_spool,
            Some(h) => {
                tracing::debug!(path = %path.display(), store = %h.store, "a usage spool for another store is left alone");
                continue;
            }
            None => {
                tracing::debug!(path = %path.display(), "a usage spool without its header is left alone");
                continue;
            }
        };
        let mut skipped = 0;
        for line in lines.filter(|l| !l.is_empty()) {
            match parse(line, version) {
                Ok(call) => orphans.calls.push(call),
                Err(_) => skipped += 1,
            }
        }
        if skipped > 0 {
            tracing::warn!(path = %path.display(), skipped, "usage spool lines that do not parse are skipped");
        }
        orphans.files.push((path, file));
    }
    if !orphans.calls.is_empty() {
        tracing::info!(calls = orphans.calls.len(), "replaying usage records a stopped process spooled");
    }
    Ok(orphans)
}

/// A record's line, as a segment of `version` holds it.
fn parse(line: &[u8], version: u32) -> serde_json::Result<UsageCall> {
    if version < 2 {
        return serde_json::from_slice(line);
    }
    let f = serde_json::from_slice::<Fields>(line)?;
    Ok(UsageCall {
        id: f.0,
        at: f.1,
        key_id: f.2,
        client: f.3,
        plugin: f.4,
        model: f.5,
        surface: f.6,
        input_tokens: f.7,
        output_tokens: f.8,
        cost: f.9,
        failure: f.10,
        trace_id: f.11,
    })
}

/// This process's segments' prefix: its pid and 32 random bits, unique among the processes sharing a
/// directory.
fn instance_id() -> String {
    let mut bytes = [0u8; 4];
    let _ = getrandom::fill(&mut bytes);
    format!("{}-{:08x}", std::process::id(), u32::from_be_bytes(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(id: &str) -> UsageCall {
        UsageCall {
            id: id.into(),
            at: 1,
            key_id: None,
            client: "default".into(),
            plugin: "p".into(),
            model: Some("m".into()),
            surface: "rest".into(),
            input_tokens: Some(3),
            output_tokens: None,
            cost: Some(7),
            failure: None,
            trace_id: None,
        }
    }

    #[test]
    fn a_dead_process_segments_are_replayed_and_a_live_one_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let live = Spool::open(dir.path(), "store-a", false).unwrap();
        assert!(live.orphans().unwrap().calls.is_empty(), "its own segment is not an orphan");
        live.append(&Spool::line(&call("1")), |_| ()).unwrap();
        // A second process sees the first one's segment locked.
        let other = Spool::open(dir.path(), "store-a", false).unwrap();
        assert!(other.orphans().unwrap().calls.is_empty());
        // The first one dies (its locks go with its file handles); a torn last line is skipped.
        live.append(&Spool::line(&call("2")), |_| ()).unwrap();
        let path = segment_path(dir.path(), &live.instance, 0);
        drop(live);
        let written = std::fs::read(&path).unwrap().iter().position(|&b| b == 0).unwrap();
        let mut file = OpenOptions::new().write(true).open(&path).unwrap();
        std::io::Seek::seek(&mut file, std::io::SeekFrom::Start(written as u64)).unwrap();
        file.write_all(b"[\"3\",").unwrap();
        let foreign = Spool::open(dir.path(), "store-b", false).unwrap();
        assert!(foreign.orphans().unwrap().calls.is_empty(), "another store's records are not taken");
        // The live process sharing the directory takes them, once.
        let orphans = other.orphans().unwrap();
        assert_eq!(orphans.calls, vec![call("1"), call("2")]);
        assert!(other.orphans().unwrap().calls.is_empty(), "taken by one process at a time");
        orphans.done();
        assert!(!path.exists());
        assert!(Spool::open(dir.path(), "store-a", false).unwrap().orphans().unwrap().calls.is_empty());
    }

    /// A spool in `dir` with `lines` records of a `1 / per_segment` of a segment each, and the
    /// segment each went to.
    fn filled(dir: &Path, lines: usize, per_segment: usize) -> (Spool, Vec<u64>) {
        let spool = Spool::open(dir, "s", false).unwrap();
        let big = Spool::line(&call(&"x".repeat(SEGMENT_BYTES / per_segment)));
        let numbers = (0..lines).map(|_| spool.append(&big, |n| n).unwrap()).collect();
        (spool, numbers)
    }

    #[test]
    fn committed_segments_are_deleted() {
        let dir = tempfile::tempdir().unwrap();
        let (spool, numbers) = filled(dir.path(), 6, 4);
        assert_eq!(numbers, vec![0, 0, 0, 1, 1, 1]);
        let count = || std::fs::read_dir(dir.path()).unwrap().count();
        assert_eq!(count(), 2);
        spool.committed_before(1);
        assert_eq!(count(), 1);
        spool.close();
        assert_eq!(count(), 0);
    }

    #[test]
    fn a_record_larger_than_a_segment_gets_one_of_its_size() {
        let dir = tempfile::tempdir().unwrap();
        let spool = Spool::open(dir.path(), "s", false).unwrap();
        let (small, huge) = (call("small"), call(&"y".repeat(2 * SEGMENT_BYTES)));
        assert_eq!(spool.append(&Spool::line(&small), |n| n).unwrap(), 0);
        assert_eq!(spool.append(&Spool::line(&huge), |n| n).unwrap(), 1);
        assert_eq!(spool.append(&Spool::line(&small), |n| n).unwrap(), 2);
        // A segment made ahead is too small for it: the huge record's own comes after it, and the
        // next record's after that.
        spool.prepare();
        assert_eq!(spool.append(&Spool::line(&huge), |n| n).unwrap(), 4);
        assert_eq!(spool.append(&Spool::line(&small), |n| n).unwrap(), 5);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 5, "the spare is deleted");
        drop(spool);
        let mut calls = Spool::open(dir.path(), "s", false).unwrap().orphans().unwrap().calls;
        calls.sort_by(|a, b| a.id.cmp(&b.id));
        let all = vec![small.clone(), small.clone(), small, huge.clone(), huge];
        assert!(calls == all, "{} records replayed", calls.len());
    }

    #[test]
    fn a_synced_spool_is_read_back_as_written() {
        let dir = tempfile::tempdir().unwrap();
        let spool = Spool::open(dir.path(), "s", true).unwrap();
        for id in ["a", "b"] {
            spool.append(&Spool::line(&call(id)), |_| ()).unwrap();
        }
        drop(spool);
        let calls = Spool::open(dir.path(), "s", false).unwrap().orphans().unwrap().calls;
        assert_eq!(calls, vec![call("a"), call("b")]);
    }

    #[test]
    fn a_segment_made_ahead_is_the_next_one_and_numbers_only_grow() {
        let dir = tempfile::tempdir().unwrap();
        let (spool, numbers) = filled(dir.path(), 2, 3);
        assert_eq!(numbers, vec![0, 0]);
        spool.prepare();
        spool.prepare();
        let files = || std::fs::read_dir(dir.path()).unwrap().count();
        assert_eq!(files(), 2, "one segment ahead, not two");
        let big = Spool::line(&call(&"x".repeat(SEGMENT_BYTES / 2)));
        assert_eq!(spool.append(&big, |n| n).unwrap(), 1, "the spare is used");
        // No spare: the next one is made on the spot, above the spare's number.
        assert_eq!(spool.append(&big, |n| n).unwrap(), 2);
        spool.prepare();
        assert!(spool.close());
        assert_eq!(files(), 0, "the spare is deleted with the rest");
        // Records in a segment made ahead are replayed like any other.
        let (spool, _) = filled(dir.path(), 1, 2);
        spool.prepare();
        spool.append(&big, |_| ()).unwrap();
        drop(spool);
        assert_eq!(Spool::open(dir.path(), "t", false).unwrap().orphans().unwrap().calls.len(), 0);
        assert_eq!(Spool::open(dir.path(), "s", false).unwrap().orphans().unwrap().calls.len(), 2);
    }

    #[test]
    fn a_version_1_segment_is_still_read() {
        let dir = tempfile::tempdir().unwrap();
        let mut old = br#"{"parlance_usage_spool":1,"store":"s"}"#.to_vec();
        old.push(b'\n');
        for id in ["a", "b"] {
            old.extend(serde_json::to_vec(&call(id)).unwrap());
            old.push(b'\n');
        }
        std::fs::write(dir.path().join("1-00000000-0.spool"), &old).unwrap();
        let spool = Spool::open(dir.path(), "s", false).unwrap();
        assert_eq!(spool.orphans().unwrap().calls, vec![call("a"), call("b")]);
    }

    #[test]
    fn a_kept_spool_deletes_no_segment() {
        let dir = tempfile::tempdir().unwrap();
        let (spool, numbers) = filled(dir.path(), 3, 2);
        assert_eq!(numbers, vec![0, 1, 2]);
        spool.keep();
        spool.committed_before(2);
        assert!(!spool.close(), "a kept spool is not deleted");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 3);
    }
}
