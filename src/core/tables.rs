//! Large tables (transposition tables, solver tables) on huge pages where the system
//! allows them: a table of tens of megabytes probed at random misses the processor's
//! page-translation cache on nearly every probe with 4 KB pages, and the miss costs as
//! much again as the probe's own cache miss.

/// `len` copies of `value` in memory the kernel is asked to back with 2 MB pages
/// (Linux's transparent huge pages in `madvise` mode, the default of many systems; a
/// hint that changes nothing where they are off or always on). Asked before the memory
/// is first written, as the kernel decides a page's size when it is first touched.
pub fn huge<T: Clone>(len: usize, value: T) -> Vec<T> {
    huge_with_room(len, len, value)
}

/// [`huge`], with room for `room` entries reserved beyond them where the system grants it
/// (address space only: a page costs nothing until it is first written), so that the
/// table can grow in place to `room` (`Vec::resize`) without a copy or a second table's
/// fresh pages. Where the reservation is refused, the room is `len` alone.
pub fn huge_with_room<T: Clone>(len: usize, room: usize, value: T) -> Vec<T> {
    let mut table = Vec::new();
    if table.try_reserve_exact(room.max(len)).is_err() {
        table.reserve_exact(len);
    }
    advise_huge(table.as_mut_ptr(), table.capacity());
    table.resize(len, value);
    table
}

#[cfg(target_os = "linux")]
fn advise_huge<T>(start: *mut T, len: usize) {
    const HUGE: usize = 2 << 20;
    let bytes = len.saturating_mul(std::mem::size_of::<T>());
    if bytes < HUGE {
        return;
    }
    // Only whole 4 KB pages inside the allocation.
    let begin = (start as usize).next_multiple_of(4096);
    let end = (start as usize + bytes) & !4095;
    if end > begin {
        // SAFETY: the range lies inside memory this process allocated (the vector's
        // capacity); madvise reads and writes nothing, and a failure only means no hint.
        unsafe {
            libc::madvise(begin as *mut libc::c_void, end - begin, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge<T>(_start: *mut T, _len: usize) {}

/// Asks the processor to bring `entry` into the cache while other work goes on (a table
/// larger than the caches costs a miss a probe, as much as a node). A hint: reads nothing.
#[inline]
pub fn prefetch<T>(entry: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is a hint; it reads nothing and `entry` is a valid reference.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>((entry as *const T).cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = entry;
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_huge_table_holds_its_values_small_or_large() {
        for len in [0, 1, 1000, 3 << 20] {
            let table = super::huge(len, 7u32);
            assert_eq!(table.len(), len);
            assert!(table.iter().all(|&v| v == 7));
        }
    }

    #[test]
    fn a_table_with_room_grows_in_place_up_to_it() {
        let mut table = super::huge_with_room(1 << 10, 1 << 22, 3u64);
        assert_eq!(table.len(), 1 << 10);
        assert!(table.capacity() >= 1 << 22);
        let start = table.as_ptr();
        table.resize(1 << 22, 5);
        assert_eq!(table.as_ptr(), start, "grown in place");
        assert!(table[..1 << 10].iter().all(|&v| v == 3));
        assert!(table[1 << 10..].iter().all(|&v| v == 5));
        // Room beyond any address space is refused: the table is as long as asked.
        let refused = super::huge_with_room(16, usize::MAX / 8, 1u64);
        assert_eq!(refused.len(), 16);
    }
}
