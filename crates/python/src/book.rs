//! `yomi.Book`: an Othello opening book of `yomi book` (`yomi_othello_search::Book`): open,
//! look up, iterate.

use std::path::PathBuf;

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use yomi_othello::Othello;
use yomi_othello_search::{Book, BookEntry, EXACT_DEPTH, WLD_DEPTH};

use crate::games::PyGame;
use crate::value_error;

/// `depth` as Python sees it: the plies, `"exact"` or `"wld"`.
fn depth_value(py: Python<'_>, depth: u8) -> PyResult<Py<PyAny>> {
    Ok(match depth {
        EXACT_DEPTH => "exact".into_pyobject(py)?.into_any().unbind(),
        WLD_DEPTH => "wld".into_pyobject(py)?.into_any().unbind(),
        d => d.into_pyobject(py)?.into_any().unbind(),
    })
}

/// An entry as a dict: `value`, `depth`, `leaf`, `leaf_value`, `lines`.
fn entry_dict<'py>(py: Python<'py>, e: &BookEntry) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("value", e.value)?;
    d.set_item("depth", depth_value(py, e.depth)?)?;
    d.set_item("leaf", e.leaf.map(|m| m.to_string()))?;
    d.set_item("leaf_value", e.leaf.map(|_| e.leaf_value))?;
    d.set_item("lines", e.lines)?;
    Ok(d)
}

/// An Othello opening book written by `yomi book`, read (and checked) once.
///
/// Positions are found under any of their 8 symmetric images. Values are in discs for the
/// side to move. Raises `ValueError` for a missing, foreign, truncated or corrupt file.
#[pyclass(module = "yomi", name = "Book", frozen)]
#[derive(Debug)]
pub(crate) struct PyBook {
    book: Book,
    path: PathBuf,
}

#[pymethods]
impl PyBook {
    #[new]
    fn new(py: Python<'_>, path: PathBuf) -> PyResult<PyBook> {
        let book = py
            .detach(|| Book::read(&path))
            .map_err(|e| value_error(format!("{}: {e}", path.display())))?;
        Ok(PyBook { book, path })
    }

    fn __repr__(&self) -> String {
        format!(
            "Book({}, {} positions)",
            crate::py_quote(&self.path.display().to_string()),
            self.book.len()
        )
    }

    fn __len__(&self) -> usize {
        self.book.len()
    }

    fn __contains__(&self, position: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.book.contains(&Othello::extract(position)?))
    }

    /// The digest of the evaluation weights that valued the book, as 16 hex digits.
    #[getter]
    fn weights(&self) -> String {
        format!("{:016x}", self.book.weights())
    }

    /// What the book knows of `position` (a `yomi.Othello` or its notation): a dict with
    /// `value`, `depth` (plies or `"exact"`), `leaf` (the best move not in the book, or
    /// `None`), `leaf_value` and `lines`; `None` when the position is not in the book.
    fn get<'py>(
        &self,
        py: Python<'py>,
        position: &Bound<'py, PyAny>,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        let pos = Othello::extract(position)?;
        self.book.get(&pos).map(|e| entry_dict(py, &e)).transpose()
    }

    /// The book moves of `position`, best first: dicts with `move`, `value` (for the side that
    /// plays it), `depth`, `lines` and `leaf` (whether its position is outside the book).
    /// Empty when the position is not in the book.
    fn moves<'py>(
        &self,
        py: Python<'py>,
        position: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        let pos = Othello::extract(position)?;
        let list = PyList::empty(py);
        for m in self.book.moves(&pos) {
            let d = PyDict::new(py);
            d.set_item("move", m.mv.to_string())?;
            d.set_item("value", m.value)?;
            d.set_item("depth", depth_value(py, m.depth)?)?;
            d.set_item("lines", m.lines)?;
            d.set_item("leaf", m.leaf)?;
            list.append(d)?;
        }
        Ok(list)
    }

    /// Every position of the book in canonical form (the side to move as `X`), with its
    /// entry: a list of `(position notation, entry dict)` pairs in the file's order.
    fn entries<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        for (pos, e) in self.book.iter() {
            list.append((pos.to_string(), entry_dict(py, &e)?))?;
        }
        Ok(list)
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyBook>()?;
    Ok(())
}
