//! gloam's C library: a session of games driven by the JSON-lines protocol of
//! `docs/protocol.md`, through an opaque handle.
//!
//! A C host makes a session with the data to load, then sends it request lines (one JSON
//! object each, as `gloam serve --stdio` reads them) and gets reply lines back, either in a
//! string the library owns (free it with [`gloam_string_free`]) or in a buffer the caller
//! owns. `include/gloam.h` is generated from this file by cbindgen; `examples/play.c` plays
//! a whole game.
//!
//! Nothing panics across the boundary: each exported function runs its work inside
//! `catch_unwind`, and a panic becomes an error reply with the code `internal` (the
//! session is then closed for good: every later request gets the same reply, since a
//! panic may have left a game half-changed).
//!
//! Unsafe code is limited to the exported functions, which read the caller's pointers;
//! everything behind them is the safe `gloam::protocol::Session`.

use std::ffi::{CStr, CString, c_char};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;

use gloam::protocol::Session;

/// A session: loaded data and the games played with it. Opaque to C.
///
/// A session may be used from one thread at a time (it is not safe to call it from two
/// threads at once); separate sessions are independent.
pub struct GloamSession {
    session: Option<Session>,
    /// The reply that did not fit the caller's buffer, kept for [`gloam_session_take_reply`].
    held: Option<String>,
}

fn internal_error(what: &str) -> String {
    format!(
        r#"{{"id":null,"error":{{"code":"internal","message":"{}"}}}}"#,
        what.replace(['"', '\\'], "'")
    )
}

/// The reply line to `request` (already checked as UTF-8), caught if anything panics.
fn reply_to(handle: &mut GloamSession, request: Result<&str, String>) -> String {
    let line = match request {
        Ok(line) => line,
        Err(message) => {
            return format!(
                r#"{{"id":null,"error":{{"code":"malformed","message":"{}"}}}}"#,
                message.replace(['"', '\\'], "'")
            );
        }
    };
    let Some(session) = handle.session.as_mut() else {
        return internal_error(
            "this session stopped after an internal failure; free it and make a new one",
        );
    };
    match catch_unwind(AssertUnwindSafe(|| session.handle_line(line))) {
        Ok(reply) => reply,
        Err(_) => {
            handle.session = None;
            internal_error(
                "an internal failure stopped this session (please report it with the request); free it and make a new one",
            )
        }
    }
}

/// Copies `reply` and a NUL into `buffer` when it fits; returns the reply's length in bytes
/// (without the NUL) either way.
fn deliver(handle: &mut GloamSession, reply: String, buffer: Option<&mut [u8]>) -> usize {
    let length = reply.len();
    match buffer {
        Some(buffer) if buffer.len() > length => {
            buffer[..length].copy_from_slice(reply.as_bytes());
            buffer[length] = 0;
            handle.held = None;
        }
        _ => handle.held = Some(reply),
    }
    length
}

fn to_c_string(text: String) -> CString {
    // Replies are JSON, which never holds a raw NUL byte; be safe anyway.
    CString::new(text).unwrap_or_else(|_| {
        CString::new(internal_error("a reply held a NUL byte")).unwrap_or_default()
    })
}

fn read_c_str<'a>(text: &'a CStr, what: &str) -> Result<&'a str, String> {
    text.to_str()
        .map_err(|_| format!("the {what} is not valid UTF-8"))
}

/// Makes a session that plays the rulesets in `data_paths` (files or folders of `.gloam`
/// files; `n_paths` of them). Returns NULL when the data cannot be loaded; then, if
/// `error_out` is not NULL, `*error_out` receives a message the caller frees with
/// [`gloam_string_free`].
///
/// # Safety
///
/// `data_paths` points to `n_paths` valid NUL-terminated strings (it may be NULL when
/// `n_paths` is 0); `error_out` is NULL or points to writable storage for one pointer.
#[allow(
    unsafe_code,
    reason = "the C ABI: exporting an unmangled symbol and reading the caller's pointers"
)]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gloam_session_new(
    data_paths: *const *const c_char,
    n_paths: usize,
    error_out: *mut *mut c_char,
) -> *mut GloamSession {
    let mut paths = Vec::with_capacity(n_paths);
    let mut failure = None;
    if n_paths > 0 && data_paths.is_null() {
        failure = Some("data_paths is NULL".to_owned());
    } else {
        for index in 0..n_paths {
            // SAFETY: the caller promises `n_paths` readable pointers at `data_paths`.
            let pointer = unsafe { *data_paths.add(index) };
            if pointer.is_null() {
                failure = Some(format!("data path {index} is NULL"));
                break;
            }
            // SAFETY: the caller promises each pointer is a NUL-terminated string.
            let path = unsafe { CStr::from_ptr(pointer) };
            match read_c_str(path, "data path") {
                Ok(path) => paths.push(PathBuf::from(path)),
                Err(message) => {
                    failure = Some(message);
                    break;
                }
            }
        }
    }
    let made = match failure {
        Some(message) => Err(message),
        None => catch_unwind(|| Session::new(&paths))
            .unwrap_or_else(|_| Err("an internal failure while loading the data".to_owned())),
    };
    match made {
        Ok(session) => Box::into_raw(Box::new(GloamSession {
            session: Some(session),
            held: None,
        })),
        Err(message) => {
            if !error_out.is_null() {
                // SAFETY: the caller promises `error_out` is writable when not NULL.
                unsafe { *error_out = to_c_string(message).into_raw() };
            }
            std::ptr::null_mut()
        }
    }
}

/// Frees a session and every game in it. NULL is ignored.
///
/// # Safety
///
/// `session` is NULL or a pointer from [`gloam_session_new`] not yet freed.
#[allow(
    unsafe_code,
    reason = "the C ABI: taking back ownership of a pointer the library handed out"
)]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gloam_session_free(session: *mut GloamSession) {
    if !session.is_null() {
        // SAFETY: the pointer came from Box::into_raw in gloam_session_new.
        let boxed = unsafe { Box::from_raw(session) };
        let _ = catch_unwind(AssertUnwindSafe(move || drop(boxed)));
    }
}

/// Handles one request line (a JSON object, as `docs/protocol.md` specifies) and returns
/// the reply line as a string the library owns: free it with [`gloam_string_free`].
/// Returns NULL only when `session` or `request` is NULL.
///
/// # Safety
///
/// `session` is a live pointer from [`gloam_session_new`], used by one thread at a time;
/// `request` is a NUL-terminated string.
#[allow(
    unsafe_code,
    reason = "the C ABI: reading the caller's session and string pointers"
)]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gloam_session_request(
    session: *mut GloamSession,
    request: *const c_char,
) -> *mut c_char {
    if session.is_null() || request.is_null() {
        return std::ptr::null_mut();
    }
    // SAFETY: the caller promises a live session, used by this thread only.
    let handle = unsafe { &mut *session };
    // SAFETY: the caller promises a NUL-terminated string.
    let request = unsafe { CStr::from_ptr(request) };
    let reply = reply_to(handle, read_c_str(request, "request"));
    to_c_string(reply).into_raw()
}

/// Handles one request line and writes the reply line, NUL-terminated, into the caller's
/// `buffer` of `capacity` bytes. Returns the reply's length in bytes (without the NUL).
/// When that length is `capacity` or more, nothing is written: the request has still been
/// handled (do not send it again), and the session keeps the reply until
/// [`gloam_session_take_reply`] fetches it into a larger buffer or the next request.
/// Returns -1 when `session` or `request` is NULL.
///
/// # Safety
///
/// `session` is a live pointer from [`gloam_session_new`], used by one thread at a time;
/// `request` is a NUL-terminated string; `buffer` is NULL or points to `capacity` writable
/// bytes.
#[allow(
    unsafe_code,
    reason = "the C ABI: reading the caller's pointers and writing into its buffer"
)]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gloam_session_request_into(
    session: *mut GloamSession,
    request: *const c_char,
    buffer: *mut c_char,
    capacity: usize,
) -> i64 {
    if session.is_null() || request.is_null() {
        return -1;
    }
    // SAFETY: the caller promises a live session, used by this thread only.
    let handle = unsafe { &mut *session };
    // SAFETY: the caller promises a NUL-terminated string.
    let request = unsafe { CStr::from_ptr(request) };
    let reply = reply_to(handle, read_c_str(request, "request"));
    let buffer = (!buffer.is_null() && capacity > 0).then(|| {
        // SAFETY: the caller promises `capacity` writable bytes at `buffer`.
        unsafe { std::slice::from_raw_parts_mut(buffer.cast::<u8>(), capacity) }
    });
    i64::try_from(deliver(handle, reply, buffer)).unwrap_or(i64::MAX)
}

/// Writes the reply that did not fit [`gloam_session_request_into`]'s buffer into `buffer`
/// (NUL-terminated) and forgets it. Returns its length in bytes, as
/// [`gloam_session_request_into`] does (when it still does not fit, it is kept); -1 when
/// no reply is held or `session` is NULL.
///
/// # Safety
///
/// `session` is a live pointer from [`gloam_session_new`]; `buffer` is NULL or points to
/// `capacity` writable bytes.
#[allow(
    unsafe_code,
    reason = "the C ABI: reading the caller's session pointer and writing into its buffer"
)]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gloam_session_take_reply(
    session: *mut GloamSession,
    buffer: *mut c_char,
    capacity: usize,
) -> i64 {
    if session.is_null() {
        return -1;
    }
    // SAFETY: the caller promises a live session, used by this thread only.
    let handle = unsafe { &mut *session };
    let Some(reply) = handle.held.take() else {
        return -1;
    };
    let buffer = (!buffer.is_null() && capacity > 0).then(|| {
        // SAFETY: the caller promises `capacity` writable bytes at `buffer`.
        unsafe { std::slice::from_raw_parts_mut(buffer.cast::<u8>(), capacity) }
    });
    i64::try_from(deliver(handle, reply, buffer)).unwrap_or(i64::MAX)
}

/// Frees a string the library returned. NULL is ignored.
///
/// # Safety
///
/// `text` is NULL or a string from [`gloam_session_request`] or `gloam_session_new`'s
/// `error_out`, not yet freed.
#[allow(
    unsafe_code,
    reason = "the C ABI: taking back ownership of a string the library handed out"
)]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gloam_string_free(text: *mut c_char) {
    if !text.is_null() {
        // SAFETY: the pointer came from CString::into_raw in this library.
        drop(unsafe { CString::from_raw(text) });
    }
}

/// The version of the protocol the library speaks (see `docs/protocol.md`).
#[unsafe(no_mangle)]
#[allow(unsafe_code, reason = "the C ABI: exporting an unmangled symbol")]
pub extern "C" fn gloam_protocol_version() -> u32 {
    gloam::protocol::PROTOCOL_VERSION
}
