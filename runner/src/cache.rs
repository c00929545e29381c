//! pld-run's build cache: where it lives, whose it is, what it may hold.
//!
//! pld-run executes what it finds here, so the directory must be the
//! user's alone: it is `$PLD_RUN_CACHE`, else `$XDG_CACHE_HOME/pld/run`,
//! else `$HOME/.cache/pld/run`, created `0700`; one owned by another user,
//! or writable by its group or by others, is refused. With none of the
//! three variables set there is no cache: the run builds in a fresh private
//! temporary directory that goes with it (never a shared `/tmp` path).
//!
//! Entries are `runtime-<sha256>` (the simulator's sources and libraries)
//! and `program-<sha256>` (one compiled program), keyed by SHA-256 over
//! everything that goes into them and published by rename, so a reader
//! sees a finished entry or none. Each holds a `used` file whose mtime is
//! its last use; once the entries pass `PLD_RUN_CACHE_MAX` bytes (default
//! [`DEFAULT_MAX_BYTES`]), the least recently used go first, never one the
//! current run uses.

use crate::messages::{Message, Sink};
use sha2::{Digest, Sha256};
use std::{
    fs,
    io::{self, Write as _},
    os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt},
    path::{Path, PathBuf},
    time::SystemTime,
};

/// The cap when `PLD_RUN_CACHE_MAX` is not set: 1 GiB (a program is about
/// 0.3 MiB, a runtime with its libraries about 1 MiB per flavour).
pub const DEFAULT_MAX_BYTES: u64 = 1 << 30;

/// The file whose mtime says when an entry was last used.
const USED: &str = "used";

/// Why pld-run cannot use a cache directory.
#[derive(Debug, thiserror::Error)]
pub enum CacheError {
    #[error(
        "the cache directory {} belongs to uid {owner}, not to you (uid {uid}): pld-run runs the programs it finds there, so it refuses it; set PLD_RUN_CACHE to a directory of your own",
        path.display()
    )]
    Foreign { path: PathBuf, owner: u32, uid: u32 },
    #[error(
        "the cache directory {} can be written by {who} (mode {mode:04o}): pld-run runs the programs it finds there, so it refuses it; `chmod go-w {}` or set PLD_RUN_CACHE to a private directory",
        path.display(), path.display()
    )]
    Writable {
        path: PathBuf,
        who: &'static str,
        mode: u32,
    },
    #[error("the cache directory {} is not a directory", path.display())]
    NotADirectory { path: PathBuf },
    #[error("cannot use the cache directory {}: {source}", path.display())]
    Io { path: PathBuf, source: io::Error },
    #[error(
        "PLD_RUN_CACHE_MAX={0}: expected a size in bytes with an optional K, M or G suffix (e.g. 512M)"
    )]
    BadMax(String),
}

fn io_error(path: &Path) -> impl FnOnce(io::Error) -> CacheError + '_ {
    move |source| CacheError::Io {
        path: path.to_owned(),
        source,
    }
}

/// Where the cache is, as the environment says.
#[derive(Debug, PartialEq, Eq)]
pub enum Location {
    Directory(PathBuf),
    /// HOME, XDG_CACHE_HOME and PLD_RUN_CACHE are all unset.
    None,
}

/// A variable's value, unless unset or empty.
fn var(name: &str) -> Option<std::ffi::OsString> {
    std::env::var_os(name).filter(|value| !value.is_empty())
}

/// `$PLD_RUN_CACHE`, `$XDG_CACHE_HOME/pld/run` (an absolute
/// XDG_CACHE_HOME only, as the XDG spec says) or `$HOME/.cache/pld/run`.
pub fn location() -> Location {
    if let Some(dir) = var("PLD_RUN_CACHE") {
        return Location::Directory(PathBuf::from(dir));
    }
    if let Some(dir) = var("XDG_CACHE_HOME").map(PathBuf::from)
        && dir.is_absolute()
    {
        return Location::Directory(dir.join("pld/run"));
    }
    match var("HOME") {
        Some(home) => Location::Directory(PathBuf::from(home).join(".cache/pld/run")),
        None => Location::None,
    }
}

/// `PLD_RUN_CACHE_MAX` in bytes: digits with an optional K, M or G
/// (powers of 1024), or [`DEFAULT_MAX_BYTES`] when unset.
pub fn max_bytes() -> Result<u64, CacheError> {
    match var("PLD_RUN_CACHE_MAX") {
        None => Ok(DEFAULT_MAX_BYTES),
        Some(value) => {
            let text = value.to_string_lossy().into_owned();
            parse_size(&text).ok_or(CacheError::BadMax(text))
        }
    }
}

/// `512`, `64K`, `512M`, `2G` (also `2g`, `2GB`, `2GiB`).
pub fn parse_size(text: &str) -> Option<u64> {
    let trimmed = text.trim();
    let digits = trimmed
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(trimmed.len());
    let (number, suffix) = trimmed.split_at(digits);
    let number: u64 = number.parse().ok()?;
    let shift = match suffix.to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        _ => return None,
    };
    number.checked_mul(1u64 << shift)
}

/// SHA-256 over `parts`, each length-prefixed (so no two lists of parts
/// hash the same bytes), in hex.
pub fn key(parts: &[&[u8]]) -> String {
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update((part.len() as u64).to_le_bytes());
        hasher.update(part);
    }
    hasher
        .finalize()
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

/// The user this process runs as.
fn uid() -> u32 {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() }
}

/// A cache directory checked to be the user's alone.
pub struct Cache {
    root: PathBuf,
    max_bytes: u64,
    /// A run without a cache location builds here; removed on drop.
    _temporary: Option<tempfile::TempDir>,
}

impl Cache {
    /// Opens (creating, `0700`) the cache at `path` and checks that only
    /// the user can write it.
    pub fn open(path: &Path, max_bytes: u64) -> Result<Cache, CacheError> {
        fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(path)
            .map_err(io_error(path))?;
        let root = path.canonicalize().map_err(io_error(path))?;
        check_private(&root)?;
        Ok(Cache {
            root,
            max_bytes,
            _temporary: None,
        })
    }

    /// A fresh private directory under the system's temporary directory,
    /// removed when the cache is dropped.
    pub fn temporary() -> Result<Cache, CacheError> {
        let directory = tempfile::Builder::new()
            .prefix("pld-run-build-")
            .tempdir()
            .map_err(io_error(&std::env::temp_dir()))?;
        Ok(Cache {
            root: directory.path().to_owned(),
            max_bytes: u64::MAX,
            _temporary: Some(directory),
        })
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// A private staging directory inside `directory` (on the cache's file
    /// system, so that a finished build is published by rename).
    pub fn staging(&self, directory: &Path) -> Result<tempfile::TempDir, CacheError> {
        tempfile::Builder::new()
            .prefix(".staging-")
            .tempdir_in(directory)
            .map_err(io_error(directory))
    }

    /// Records that `entry` (a directory of the cache) was used now; a
    /// failure is only a note to `notes` (the entry is evicted early).
    pub fn touch(&self, entry: &Path, notes: &Sink) {
        let used = entry.join(USED);
        let now = SystemTime::now();
        let stamped = fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&used)
            .and_then(|file| file.set_modified(now));
        if let Err(error) = stamped {
            notes(Message::Note(format!(
                "warning: cannot record the use of {}: {error}",
                entry.display()
            )));
        }
    }

    /// Removes the least recently used entries until the cache holds at
    /// most its cap, except `in_use`; also staging directories a killed run
    /// left behind (older than a day).
    pub fn evict(&self, in_use: &[&Path]) {
        let Ok(listing) = fs::read_dir(&self.root) else {
            return;
        };
        let mut entries = Vec::new();
        let mut total = 0u64;
        for entry in listing.flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with(".staging-") {
                let stale = entry
                    .metadata()
                    .and_then(|metadata| metadata.modified())
                    .ok()
                    .and_then(|modified| modified.elapsed().ok())
                    .is_some_and(|age| age.as_secs() > 24 * 3600);
                if stale {
                    let _ = fs::remove_dir_all(&path);
                }
                continue;
            }
            if !(name.starts_with("program-") || name.starts_with("runtime-")) {
                continue;
            }
            let size = tree_size(&path);
            total = total.saturating_add(size);
            let used = fs::metadata(path.join(USED))
                .or_else(|_| entry.metadata())
                .and_then(|metadata| metadata.modified())
                .unwrap_or(SystemTime::UNIX_EPOCH);
            entries.push((used, path, size));
        }
        if total <= self.max_bytes {
            return;
        }
        entries.sort();
        for (_, path, size) in entries {
            if total <= self.max_bytes {
                break;
            }
            if in_use.iter().any(|used| path == *used) {
                continue;
            }
            // Out of the namespace first: no reader sees it half removed.
            let Ok(trash) = self.staging(&self.root) else {
                return;
            };
            let target = trash.path().join("evicted");
            if fs::rename(&path, &target).is_ok() {
                total = total.saturating_sub(size);
            }
        }
    }
}

/// Refuses a directory another user owns or others can write.
fn check_private(path: &Path) -> Result<(), CacheError> {
    let metadata = fs::metadata(path).map_err(io_error(path))?;
    if !metadata.is_dir() {
        return Err(CacheError::NotADirectory {
            path: path.to_owned(),
        });
    }
    let uid = uid();
    if metadata.uid() != uid {
        return Err(CacheError::Foreign {
            path: path.to_owned(),
            owner: metadata.uid(),
            uid,
        });
    }
    let mode = metadata.permissions().mode() & 0o7777;
    let who = match (mode & 0o020 != 0, mode & 0o002 != 0) {
        (true, true) => "its group and others",
        (true, false) => "its group",
        (false, true) => "others",
        (false, false) => return Ok(()),
    };
    Err(CacheError::Writable {
        path: path.to_owned(),
        who,
        mode,
    })
}

/// The bytes of every file under `path`.
fn tree_size(path: &Path) -> u64 {
    let Ok(metadata) = fs::symlink_metadata(path) else {
        return 0;
    };
    if !metadata.is_dir() {
        return metadata.len();
    }
    fs::read_dir(path)
        .map(|listing| {
            listing
                .flatten()
                .map(|entry| tree_size(&entry.path()))
                .sum()
        })
        .unwrap_or(0)
}

/// Moves a finished build into place; another process may have won the
/// race (then its identical result stays).
pub fn publish(staging: &Path, target: &Path) -> Result<(), CacheError> {
    match fs::rename(staging, target) {
        Ok(()) => Ok(()),
        Err(_) if target.exists() => {
            let _ = fs::remove_dir_all(staging);
            let _ = fs::remove_file(staging);
            Ok(())
        }
        Err(source) => Err(CacheError::Io {
            path: target.to_owned(),
            source,
        }),
    }
}

/// Writes `contents` to a new file at `path`.
pub fn write_new(path: &Path, contents: &[u8]) -> Result<(), CacheError> {
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).map_err(io_error(parent))?;
    }
    fs::File::create(path)
        .and_then(|mut file| file.write_all(contents))
        .map_err(io_error(path))
}
