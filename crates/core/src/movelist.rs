use std::fmt;
use std::ops::Deref;

/// A list of moves with a fixed capacity `N`, stored inline (no allocation).
///
/// Each game states its bound next to its list type (9 for tic-tac-toe: one move per square).
/// Moves must be `Copy + Default`; the default value only fills unused slots.
#[derive(Clone, Copy)]
pub struct MoveList<M, const N: usize> {
    len: usize,
    items: [M; N],
}

impl<M: Copy + Default, const N: usize> MoveList<M, N> {
    /// An empty list.
    #[inline]
    #[must_use]
    pub fn new() -> Self {
        MoveList {
            len: 0,
            items: [M::default(); N],
        }
    }

    /// Appends a move.
    ///
    /// # Panics
    /// If the list already holds `N` moves: a game whose bound is wrong has a bug that must not
    /// go unnoticed. See [`MoveList::try_push`] for the fallible variant.
    #[inline]
    #[track_caller]
    pub fn push(&mut self, mv: M) {
        assert!(self.len < N, "move list capacity {N} exceeded");
        self.items[self.len] = mv;
        self.len += 1;
    }

    /// Appends a move, or hands it back when the list is full.
    ///
    /// # Errors
    /// Returns the move when the list already holds `N` moves.
    #[inline]
    pub fn try_push(&mut self, mv: M) -> Result<(), M> {
        if self.len < N {
            self.items[self.len] = mv;
            self.len += 1;
            Ok(())
        } else {
            Err(mv)
        }
    }

    /// The moves as a slice.
    #[inline]
    #[must_use]
    pub fn as_slice(&self) -> &[M] {
        &self.items[..self.len]
    }

    /// The capacity `N`.
    #[inline]
    #[must_use]
    pub const fn capacity(&self) -> usize {
        N
    }
}

impl<M: Copy + Default, const N: usize> Default for MoveList<M, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<M: Copy + Default, const N: usize> Deref for MoveList<M, N> {
    type Target = [M];

    #[inline]
    fn deref(&self) -> &[M] {
        self.as_slice()
    }
}

impl<M: Copy + Default, const N: usize> AsRef<[M]> for MoveList<M, N> {
    fn as_ref(&self) -> &[M] {
        self.as_slice()
    }
}

impl<M: Copy + Default + PartialEq, const N: usize> PartialEq for MoveList<M, N> {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<M: Copy + Default + Eq, const N: usize> Eq for MoveList<M, N> {}

impl<M: fmt::Debug, const N: usize> fmt::Debug for MoveList<M, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(&self.items[..self.len]).finish()
    }
}

impl<M: Copy + Default, const N: usize> FromIterator<M> for MoveList<M, N> {
    /// # Panics
    /// If the iterator yields more than `N` moves.
    fn from_iter<I: IntoIterator<Item = M>>(iter: I) -> Self {
        let mut list = Self::new();
        for mv in iter {
            list.push(mv);
        }
        list
    }
}

impl<M: Copy + Default, const N: usize> IntoIterator for MoveList<M, N> {
    type Item = M;
    type IntoIter = IntoIter<M, N>;

    fn into_iter(self) -> IntoIter<M, N> {
        IntoIter {
            list: self,
            next: 0,
        }
    }
}

impl<'a, M: Copy + Default, const N: usize> IntoIterator for &'a MoveList<M, N> {
    type Item = &'a M;
    type IntoIter = std::slice::Iter<'a, M>;

    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

/// The by-value iterator of a [`MoveList`].
#[derive(Clone, Debug)]
pub struct IntoIter<M, const N: usize> {
    list: MoveList<M, N>,
    next: usize,
}

impl<M: Copy + Default, const N: usize> Iterator for IntoIter<M, N> {
    type Item = M;

    #[inline]
    fn next(&mut self) -> Option<M> {
        let mv = self.list.as_slice().get(self.next).copied();
        self.next += usize::from(mv.is_some());
        mv
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.list.len - self.next;
        (left, Some(left))
    }
}

impl<M: Copy + Default, const N: usize> ExactSizeIterator for IntoIter<M, N> {}
impl<M: Copy + Default, const N: usize> std::iter::FusedIterator for IntoIter<M, N> {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn push_iterate_and_overflow() {
        let mut list: MoveList<u8, 3> = MoveList::new();
        assert!(list.is_empty());
        list.push(4);
        list.push(7);
        assert_eq!(list.as_slice(), &[4, 7]);
        assert!(list.contains(&7));
        assert_eq!(list.try_push(9), Ok(()));
        assert_eq!(list.try_push(1), Err(1));
        assert_eq!(list.into_iter().collect::<Vec<_>>(), vec![4, 7, 9]);
        assert_eq!(list.into_iter().len(), 3);
        assert_eq!(format!("{list:?}"), "[4, 7, 9]");
        let same: MoveList<u8, 3> = [4, 7, 9].into_iter().collect();
        assert_eq!(same, list);
    }

    #[test]
    #[should_panic(expected = "capacity 1 exceeded")]
    fn push_past_capacity_panics() {
        let mut list: MoveList<u8, 1> = MoveList::new();
        list.push(1);
        list.push(2);
    }
}
