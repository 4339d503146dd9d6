import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Router } from 'wouter';
import { App } from './App';
import { makeQueryClient, SessionProvider } from './session';
import './styles.css';

const queryClient = makeQueryClient();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <SessionProvider queryClient={queryClient}>
        <Router base="/console">
          <App />
        </Router>
      </SessionProvider>
    </QueryClientProvider>
  </StrictMode>,
);
