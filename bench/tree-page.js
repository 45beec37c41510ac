// Measurements that run inside the page (bench/tree.ts evaluates this file).
// Plain JavaScript on purpose: code that tsx compiles would call its helpers in the page.
window.depotTreeBench = {
  /** Press → on the tree's active row; ms until its first child is painted. */
  timeExpand(label, firstChild) {
    return new Promise((resolve, reject) => {
      const tree = document.querySelector(`[role=tree][aria-label="${label}"]`);
      const drawn = () =>
        [...tree.querySelectorAll('.tree-text')].some((el) => el.textContent === firstChild);
      const start = performance.now();
      const observer = new MutationObserver(() => {
        if (!drawn()) return;
        observer.disconnect();
        // drawn means painted: the frame after the DOM change
        requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - start)));
      });
      observer.observe(tree, { childList: true, subtree: true, characterData: true });
      setTimeout(() => reject(new Error('no rows after 10 s')), 10000);
      tree.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
    });
  },

  /** The time between `count` frames of the page doing nothing: the browser's own floor. */
  idleFrames(count) {
    return new Promise((resolve) => {
      const frames = [];
      let last = performance.now();
      const frame = (now) => {
        frames.push(now - last);
        last = now;
        if (frames.length > count) resolve(frames.slice(1));
        else requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
    });
  },

  /** Scroll the tree from top to bottom over about 600 frames; each frame's duration. */
  scrollEndToEnd(label) {
    return new Promise((resolve) => {
      const tree = document.querySelector(`[role=tree][aria-label="${label}"]`);
      tree.scrollTop = 0;
      const step = Math.max(1, Math.ceil(tree.scrollHeight / 600));
      const frames = [];
      let last = performance.now();
      const frame = (now) => {
        frames.push(now - last);
        last = now;
        if (tree.scrollTop + tree.clientHeight >= tree.scrollHeight - 1) {
          resolve(frames.slice(1));
          return;
        }
        tree.scrollTop += step;
        requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
    });
  },
};
