/** A short beep and a buzz on a read, so staff know without looking; both quietly skipped where unsupported. */
export function readFeedback(ok: boolean): void {
  try {
    navigator.vibrate?.(ok ? 60 : [40, 60, 40]);
  } catch {
    // no vibration motor
  }
  try {
    const AudioCtx = window.AudioContext;
    if (!AudioCtx) return;
    const audio = new AudioCtx();
    const tone = audio.createOscillator();
    const volume = audio.createGain();
    tone.frequency.value = ok ? 1200 : 300;
    volume.gain.value = 0.08;
    tone.connect(volume).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + (ok ? 0.08 : 0.2));
    tone.onended = () => void audio.close();
  } catch {
    // no audio output
  }
}
