import { useEffect } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';

/** `/redirect/:path` forwards to `/<path>` (with the query) and never becomes a tab. */
export function RedirectPage() {
  const { path = '' } = useParams();
  const { search } = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    const target = decodeURIComponent(path);
    navigate(`${target.startsWith('/') ? target : `/${target}`}${search}`, { replace: true });
  }, [path, search, navigate]);
  return null;
}
